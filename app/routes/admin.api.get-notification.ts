import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { listNotifications } from '~/domain/messaging/notifications.server'
import { authenticateApiCall } from '~/utils/api-auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { apiJson } from '~/utils/api.server'

/**
 * POST /admin/api/get-notification (empty body) → { status: 200, notifications, unreadNotifications }.
 * The bell polls it every 15 seconds: one indexed query.
 */
export async function action({ request }: ActionFunctionArgs) {
	const caller = await authenticateApiCall(request)
	if (caller instanceof Response) return caller
	return apiJson({ status: 200, ...(await listNotifications(caller.user.id, caller.language)) })
}

export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')
