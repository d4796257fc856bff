import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { getChat, markChatRead, requireChatPartner } from '~/domain/messaging/chat.server'
import { authenticateApiCall } from '~/utils/api-auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { apiJson } from '~/utils/api.server'
import { readBodyId } from '~/utils/public-id'
import { handleDomainError } from '~/utils/route-helpers.server'

/**
 * POST /admin/api/get-chat (body `receiver_id`) → { status: 200, chats: [{ sender_id, message, created_at }] },
 * oldest first. Only between a customer and a workshop that share a request.
 */
export async function action({ request }: ActionFunctionArgs) {
	const caller = await authenticateApiCall(request)
	if (caller instanceof Response) return caller
	try {
		const partner = await requireChatPartner(caller.user.id, readBodyId(caller.payload.get('receiver_id')))
		await markChatRead(caller.user.id, partner.id)
		return apiJson({ status: 200, chats: await getChat(caller.user.id, partner.id) })
	} catch (error) {
		return handleDomainError(error, { as: 'json', language: caller.language })
	}
}

export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')
