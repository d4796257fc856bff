import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { ChatMessageSchema } from '~/domain/messaging/chat'
import { sendChatMessage } from '~/domain/messaging/chat.server'
import { getFixedT } from '~/i18n/i18n.server'
import { authenticateApiCall } from '~/utils/api-auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { apiJson, apiValidationError } from '~/utils/api.server'
import { readBodyId } from '~/utils/public-id'
import { handleDomainError } from '~/utils/route-helpers.server'

/**
 * POST /admin/api/send-chat (form-data `receiver_id`, `message`) → { status: 200, message }.
 * An empty message is 422 and sends nothing; a stranger is 403.
 */
export async function action({ request }: ActionFunctionArgs) {
	const caller = await authenticateApiCall(request)
	if (caller instanceof Response) return caller
	const t = getFixedT(caller.language, 'common')
	const submission = parseWithZod(caller.payload, { schema: ChatMessageSchema })
	if (submission.status !== 'success') return apiValidationError(t, submission.reply().error)
	try {
		await sendChatMessage(caller.user.id, readBodyId(submission.value.receiver_id), submission.value.message)
		return apiJson({ status: 200, message: t('chat.sent') })
	} catch (error) {
		return handleDomainError(error, { as: 'json', language: caller.language })
	}
}

export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')
