import { type ActionFunctionArgs } from 'react-router'
import { passkeyAddOptions, passkeyConfirmOptions, passkeySignInOptions } from '~/domain/accounts/passkeys.server'
import { getLanguage } from '~/i18n/i18n.server'
import { mayAddWayIn, requireUser } from '~/utils/auth.server'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { apiError } from '~/utils/api.server'
import { handleDomainError } from '~/utils/route-helpers.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { readForm } from '~/uploads/multipart.server'

/**
 * A WebAuthn ceremony's options (issue 36): `purpose=add` for the signed-in person adding a
 * passkey (/settings/passkeys; an administrator only from a session that may, decision 0156),
 * `purpose=sign-in` for anyone signing in (/login), `purpose=confirm` for the signed-in person
 * confirming their session with one of their own passkeys (/admin/verify, deleting an account). A
 * form post with the page's CSRF token, answered in JSON; the page's script hands the options to the browser.
 */
export async function action({ request, context }: ActionFunctionArgs) {
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const purpose = formData.get('purpose')
	const language = await getLanguage(request)
	try {
		if (purpose === 'add') {
			const user = await requireUser(request)
			const options = await passkeyAddOptions(
				{ id: user.id, mayAddWayIn: mayAddWayIn(user), email: user.email, name: [user.firstName, user.lastName].filter(Boolean).join(' ') },
				clientIp(context),
			)
			return Response.json(options, { headers: { 'Cache-Control': 'no-store' } })
		}
		if (purpose === 'confirm') {
			const user = await requireUser(request)
			return Response.json(await passkeyConfirmOptions(user.id, clientIp(context)), { headers: { 'Cache-Control': 'no-store' } })
		}
		if (purpose === 'sign-in') return Response.json(await passkeySignInOptions(clientIp(context)), { headers: { 'Cache-Control': 'no-store' } })
	} catch (error) {
		return handleDomainError(error, { as: 'json', language })
	}
	return apiError(400, 'purpose: add, sign-in or confirm')
}

export const loader = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'POST')
