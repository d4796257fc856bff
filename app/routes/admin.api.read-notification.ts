import { type ActionFunctionArgs } from '@remix-run/node'
import { readNotification } from '~/domain/notifications.server'
import { apiDomainError, authenticateApiCall } from '~/utils/api-auth.server'
import { apiJson } from '~/utils/api.server'
import { readBodyId } from '~/utils/public-id'

/**
 * POST /admin/api/read-notification (body `id`) marks one of the caller's notifications read and
 * answers the list and count as get-notification does. Another user's id is 404.
 */
export async function action({ request }: ActionFunctionArgs) {
	const caller = await authenticateApiCall(request)
	if (caller instanceof Response) return caller
	try {
		const { list } = await readNotification(caller.user.id, readBodyId(caller.payload.get('id')), caller.language)
		return apiJson({ status: 200, ...list })
	} catch (error) {
		return apiDomainError(error, caller.language)
	}
}

export function loader() {
	return new Response(null, { status: 405, headers: { Allow: 'POST' } })
}
