import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { logout } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'

// Logging out is a POST with the CSRF token, so no other site can sign a visitor out.
export async function action({ request }: ActionFunctionArgs) {
	const formData = await request.formData()
	await validateCsrf(request, formData)
	return logout(request)
}

export function loader() {
	return redirect('/')
}
