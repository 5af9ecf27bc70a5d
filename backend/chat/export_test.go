package chat

// Internals the external tests (package chat_test, which can reach the
// fake Ollama: backend/ollama imports this package) check against.
var (
	MessageOverhead = messageOverhead
	AnswerNow       = answerNow
	BudgetExhausted = budgetExhausted
	MessageTokens   = messageTokens
	ToolsTokens     = toolsTokens
)
