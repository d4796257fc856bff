import * as z from 'zod/mini'
import { requiredText } from '~/utils/validation'

/**
 * One schema for a chat message: the chat page's form, the dialog and `POST /admin/api/send-chat`.
 * `receiver_id` is the other user's id, raw or base64-encoded as in a link.
 */
export const ChatMessageSchema = z.object({
	receiver_id: requiredText(64),
	message: requiredText(2000),
})

export type ChatEntry = { sender_id: string; message: string; created_at: string }
