import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { findEInvoice } from '~/domain/billing/e-invoice.server'
import { requireUser } from '~/utils/auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { privateDownload } from '~/utils/http'

/**
 * An invoice's e-invoice (EN 16931, UBL 2.1 XML; issue 21, decision 0110), beside its PDF on
 * /subscription: for the invoice's own workshop and for administrators. Anyone else signed in,
 * another workshop too, and a number that does not exist: 404. Not signed in: the login.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request)
	// An administrator's way to any workshop's invoice: with the second factor (decision 0156).
	if (user.role === 'admin') await requireUser(request, { role: 'admin' })
	const number = /^[1-9][0-9]{0,9}$/.test(params.number ?? '') ? Number(params.number) : null
	const file = number === null ? null : await findEInvoice(number, user)
	if (!file) throw new Response('Not found', { status: 404 })
	return privateDownload(file.xml, { contentType: 'application/xml; charset=utf-8', filename: file.filename })
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
