import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { linkedVehicle, vehiclePassport } from '~/domain/service-flow/passport.server'
import { getSiteData } from '~/domain/site/site.server'
import { getOptionalUser } from '~/utils/auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { privateDownload } from '~/utils/http'

/**
 * A vehicle's service history as a PDF (issue 20), in its owner's language: for its owner signed
 * in, or for a buyer with the history's read-only link (`?token=`, made and revoked on the
 * vehicle's page). Anyone else, a wrong or revoked token: 404, as for a vehicle that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const vehicleId = idParam(params.slug)
	const token = new URL(request.url).searchParams.get('token')
	const user = token ? null : await getOptionalUser(request)
	const vehicle = await or404(linkedVehicle(vehicleId, 'history', { userId: user?.id ?? null, token }))
	// pdf-lib and the fonts load with the first PDF, not with every start (server-start.spec).
	const [{ history, warranties }, site, { renderHistoryPdf }] = await Promise.all([
		vehiclePassport(vehicle, vehicle.language),
		getSiteData(),
		import('~/domain/service-flow/passport-pdf.server'),
	])
	const pdf = await renderHistoryPdf({
		vehicle: { name: vehicle.name, registrationNumber: vehicle.registrationNumber, vin: vehicle.vin, year: vehicle.vehicleYear, mileage: vehicle.mileage, odometerUnit: vehicle.odometerUnit },
		history,
		warranties,
		language: vehicle.language,
		appName: site.appname,
	})
	return privateDownload(Buffer.from(pdf), { contentType: 'application/pdf', filename: `service-history-${vehicle.registrationNumber}.pdf` })
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
