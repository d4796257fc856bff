import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { vehicleCalendar } from '~/domain/service-flow/passport-calendar.server'
import { linkedVehicle } from '~/domain/service-flow/passport.server'
import { getOptionalUser } from '~/utils/auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { privateDownload } from '~/utils/http'

/**
 * A vehicle's calendar (issue 20): for its owner signed in, or for a phone's calendar with the
 * vehicle's private link (`?token=`, made and revoked on the vehicle's page). Anyone else, a wrong
 * or revoked token: 404, as for a vehicle that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const vehicleId = idParam(params.slug)
	const token = new URL(request.url).searchParams.get('token')
	const user = token ? null : await getOptionalUser(request)
	const vehicle = await or404(linkedVehicle(vehicleId, 'calendar', { userId: user?.id ?? null, token }))
	return privateDownload(await vehicleCalendar(vehicle), { contentType: 'text/calendar; charset=utf-8', filename: `${vehicle.registrationNumber}.ics` })
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
