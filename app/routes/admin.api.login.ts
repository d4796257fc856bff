import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { eq } from 'drizzle-orm'
import { workshops } from '~/db/schema'
import { LoginSchema } from '~/domain/accounts/accounts'
import { accountErrorHeaders, accountErrorMessage, authenticate, openSession } from '~/domain/accounts/accounts.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { apiError, apiJson, apiValidationError, readPayload } from '~/utils/api.server'
import { clientIp } from '~/utils/client-ip.server'
import { db } from '~/db/db.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { translateMessage } from '~/utils/messages'

/**
 * POST /admin/api/login (JSON or form body: email, password) →
 * { status: 200, message, token, data: { id, roles_slug, first_name, last_name, workshop_name } },
 * or { status: 401, message } with the portal's texts. The token is a Bearer token for the API.
 */
export async function action({ request, context }: ActionFunctionArgs) {
	if (request.method !== 'POST') return methodNotAllowed(request, 'POST')
	const t = getFixedT(await getLanguage(request), 'auth')
	const submission = parseWithZod(await readPayload(request), { schema: LoginSchema })
	if (submission.status !== 'success') return apiValidationError(t, submission.reply().error, { cors: true })

	const result = await authenticate({ ...submission.value, ip: clientIp(context) })
	if (!result.ok) return apiError(result.error.status, translateMessage(t, accountErrorMessage(result.error)), { cors: true, headers: accountErrorHeaders(result.error) })

	const { user } = result
	const token = await openSession({ userId: user.id, kind: 'api', userAgent: request.headers.get('User-Agent'), method: 'password' })
	const [workshop] = await db.select({ name: workshops.workshopName }).from(workshops).where(eq(workshops.userId, user.id))
	return apiJson(
		{
			status: 200,
			message: t('api.loggedIn'),
			token,
			data: {
				id: user.id,
				roles_slug: user.role,
				first_name: user.firstName,
				last_name: user.lastName,
				workshop_name: workshop?.name ?? null,
			},
		},
		{ cors: true },
	)
}

export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')
