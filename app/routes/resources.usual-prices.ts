import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { usualPrices } from '~/domain/pricing/usual-prices.server'
import { UsualPricesQuerySchema, usualPricesQueryOf } from '~/domain/pricing/usual-prices'
import { getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { BadRequest, methodNotAllowed } from '~/utils/failures.server'

/**
 * GET /resources/usual-prices?vehicle=…&city=…&service=…: the usual price of each service for the
 * customer's own vehicle's class in the city's county, as the request form shows it beside the
 * services while they are chosen (its live look-up, JavaScript on; decision 0149). Another's
 * vehicle is not found (404); a malformed query or an unknown city or service is a bad request.
 */
export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const query = UsualPricesQuerySchema.safeParse(usualPricesQueryOf(new URL(request.url).searchParams))
	if (!query.success) throw new BadRequest(400)
	const { vehicle, city, service } = query.data
	const prices = await usualPrices(user.id, { vehicleId: vehicle, cityId: city, serviceIds: service }, await getLanguage(request))
	return Response.json(prices, { headers: { 'Cache-Control': 'private, no-store' } })
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
