package offline

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// paraphrases are hand-made pairs that say the same thing in different
// words, half scientific, half everyday. Unrelated pairs are formed by
// matching each first sentence with another pair's second sentence.
var paraphrases = [][2]string{
	{"The cat sat on the mat.", "A kitten was resting on the rug."},
	{"How do I reset my password?", "I forgot my login password and need to change it."},
	{"The train to London was cancelled because of the snow.", "Heavy snowfall led to the London train being called off."},
	{"She bought fresh vegetables at the market this morning.", "This morning she went to the market and purchased fresh produce."},
	{"The restaurant serves excellent Italian food.", "That restaurant has great pasta and pizza."},
	{"My car would not start in the cold weather.", "The vehicle failed to start because it was freezing outside."},
	{"The children played football in the park after school.", "After classes the kids kicked a ball around in the park."},
	{"He is learning to play the guitar.", "He has started taking guitar lessons."},
	{"The meeting has been moved to next Tuesday.", "We rescheduled the meeting for Tuesday next week."},
	{"It rained all weekend so we stayed indoors.", "Because of the constant rain over the weekend we remained at home."},
	{"Smoking increases the risk of lung cancer.", "Tobacco use raises the likelihood of developing lung tumours."},
	{"The vaccine reduced hospital admissions among elderly patients.", "Immunisation lowered the rate of hospitalisation in older people."},
	{"Insulin regulates blood glucose levels.", "Blood sugar is controlled by the hormone insulin."},
	{"Antibiotics are ineffective against viral infections.", "Bacterial drugs do not work on illnesses caused by viruses."},
	{"Regular exercise lowers blood pressure in adults.", "Physical activity reduces hypertension in grown-ups."},
	{"The mutation disrupts the protein's ability to bind DNA.", "This genetic variant impairs how the protein attaches to DNA."},
	{"Climate change is causing sea levels to rise.", "Global warming leads to higher oceans."},
	{"The drug was well tolerated with few side effects.", "Patients experienced minimal adverse reactions to the medication."},
	{"Sleep deprivation impairs memory consolidation.", "Lack of sleep harms the brain's ability to store memories."},
	{"Obesity is associated with an increased risk of type 2 diabetes.", "Being overweight raises the chance of developing diabetes."},
}

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s // both are unit vectors
}

// pairCosines returns the mean cosine of the paraphrase pairs and of the
// unrelated pairs.
func pairCosines(t testing.TB, e *Embedder) (paired, unrelated float64) {
	var first, second []string
	for _, p := range paraphrases {
		first = append(first, p[0])
		second = append(second, p[1])
	}
	a, err := e.Embed(context.Background(), first)
	require.NoError(t, err)
	b, err := e.Embed(context.Background(), second)
	require.NoError(t, err)
	n := len(paraphrases)
	for i := range n {
		paired += cosine(a[i], b[i])
		// Shift by half the list so each unrelated pair crosses the
		// everyday/scientific line or lands on a distant topic.
		unrelated += cosine(a[i], b[(i+n/2+1)%n])
	}
	return paired / float64(n), unrelated / float64(n)
}

func TestParaphrasesScoreAboveUnrelatedPairs(t *testing.T) {
	e := mustNew(t)
	paired, unrelated := pairCosines(t, e)
	t.Logf("mean cosine: paraphrases %.3f, unrelated %.3f", paired, unrelated)
	require.Greater(t, paired, 0.5, "paraphrases should be clearly similar")
	require.Less(t, unrelated, 0.25, "unrelated pairs should be near orthogonal")
	require.Greater(t, paired-unrelated, 0.35)
}

// mustNew loads the embedded table, failing (not skipping) with the
// instruction to generate it.
func mustNew(t testing.TB) *Embedder {
	t.Helper()
	e, err := New()
	require.NoError(t, err, "the tests need the generated table")
	return e
}
