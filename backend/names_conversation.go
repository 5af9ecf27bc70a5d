package backend

import "github.com/loomwork/loom/backend/conversation"

// The conversation's types (backend/conversation).
type (
	ChatRequest         = conversation.ChatRequest
	ChatTurn            = conversation.ChatTurn
	Conversation        = conversation.Conversation
	ConversationSummary = conversation.ConversationSummary
	AuditRecord         = conversation.AuditRecord
)

// AnswersCollection is the collection answers are indexed into.
const AnswersCollection = conversation.AnswersCollection

// DefaultChatWindow caps the window a chat asks Ollama for.
const DefaultChatWindow = conversation.DefaultChatWindow
