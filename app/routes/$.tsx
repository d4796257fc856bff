import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from 'react-router'
import { enforceRouteAccess } from '~/utils/auth.server'

// Spec §2: any other path redirects to /. A path of spec §2 that has no page yet is guarded first,
// so the visitor still gets the guard's answer (this redirect would otherwise win over the root's).
export async function loader({ request }: LoaderFunctionArgs) {
	await enforceRouteAccess(request)
	return redirect('/')
}

export async function action({ request }: ActionFunctionArgs) {
	await enforceRouteAccess(request)
	return redirect('/')
}
