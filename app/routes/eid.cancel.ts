import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { eidCookieHeader } from '~/identity/eid-cookie.server'
import { validateCsrf } from '~/utils/csrf.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { readForm } from '~/uploads/multipart.server'
import { safeRedirect } from '~/utils/safe-redirect'

/**
 * POST /eid/cancel: "Don't use this eID" on the login and registration pages. Forgets the verified
 * person the eID cookie holds (decision 0150) and goes back to the plain form.
 */
export async function action({ request }: ActionFunctionArgs) {
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const back = safeRedirect(formData.get('back'), '/login')
	return redirect(back, { headers: { 'Set-Cookie': await eidCookieHeader(null) } })
}

export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')
