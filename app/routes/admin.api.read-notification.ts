import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { readNotification } from '~/domain/messaging/notifications.server'
import { authenticateApiCall } from '~/utils/api-auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { apiJson } from '~/utils/api.server'
import { readBodyId } from '~/utils/public-id'
import { handleDomainError } from '~/utils/route-helpers.server'

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
		return handleDomainError(error, { as: 'json', language: caller.language })
	}
}

export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')
