import { type ActionFunctionArgs, redirect } from 'react-router'
import { logout } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { readForm } from '~/uploads/multipart.server'

// Logging out is a POST with the CSRF token, so no other site can sign a visitor out.
export async function action({ request }: ActionFunctionArgs) {
	if (request.method !== 'POST') return methodNotAllowed(request, ['GET', 'POST'])
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	return logout(request)
}

// A link or a bookmark to /logout signs nobody out: it goes home.
export function loader() {
	return redirect('/')
}
