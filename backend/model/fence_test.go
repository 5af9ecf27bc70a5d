package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFence(t *testing.T) {
	assert.Equal(t, "```", Fence("```python"))
	assert.Equal(t, "~~~~", Fence([]byte("~~~~")))
	assert.Empty(t, Fence("``x"))
	assert.Empty(t, Fence("text ```"))
	assert.True(t, ClosesFence("````", "```"), "at least as many")
	assert.True(t, ClosesFence([]byte("```"), "```"))
	assert.False(t, ClosesFence("``", "```"))
	assert.False(t, ClosesFence("```js", "```"), "nothing else")
	assert.False(t, ClosesFence("~~~", "```"), "the same character")
	assert.False(t, ClosesFence("```", ""))
}
