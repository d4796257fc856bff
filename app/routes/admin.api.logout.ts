import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { apiError, apiJson } from '~/utils/api.server'
import { endSession, getApiUser } from '~/utils/auth.server'
import { methodNotAllowed } from '~/utils/failures.server'

/** POST /admin/api/logout with `Authorization: Bearer <token>` ends that token: { status: 200, message }. */
export async function action({ request }: ActionFunctionArgs) {
	if (request.method !== 'POST') return methodNotAllowed(request, 'POST')
	const t = getFixedT(await getLanguage(request), 'auth')
	const user = await getApiUser(request)
	if (!user) return apiError(401, t('api.loginRequired'), { cors: true })
	await endSession(user)
	return apiJson({ status: 200, message: t('api.loggedOut') }, { cors: true })
}

export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')
