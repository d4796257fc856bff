import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { settleStripeReturn } from '~/domain/billing/subscription.server'
import { requireWorkshop } from '~/utils/auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { redirectWithToast } from '~/utils/toast.server'

/** Where Stripe Checkout sends the workshop back: thanks once the payment is active, else a note. */
export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const outcome = await settleStripeReturn(actor.workshopId, new URL(request.url).searchParams.get('session_id') ?? '')
	if (outcome === 'unknown') throw new Response('Not found', { status: 404 })
	if (outcome === 'paid') return redirect('/thank-you')
	return redirectWithToast('/subscription', { type: 'info', key: 'billing:toast.paymentPending' }, { request })
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
