import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { VehicleForm } from '~/components/vehicle-form'
import { getChoices } from '~/domain/site/reference.server'
import { VehicleSchema } from '~/domain/service-flow/vehicles'
import { fromKm } from '~/domain/service-flow/vehicle-kinds'
import { getVehicle, updateVehicle } from '~/domain/service-flow/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	// Anyone signed in but its owner, a workshop too, finds no such vehicle: a 404, not a redirect (issue 20).
	const user = await requireUser(request)
	const vehicle = await or404(getVehicle(user.id, idParam(params.slug)))
	const language = await getLanguage(request)
	const t = getFixedT(language, 'customer')
	const { carBrands } = await getChoices(language, ['carBrands'])
	const text = (value: number | string | null) => (value === null ? '' : String(value))
	return {
		meta: { title: t('vehicle.editTitle', { plate: vehicle.registrationNumber }) },
		brands: carBrands,
		plate: vehicle.registrationNumber,
		defaults: {
			registrationNumber: vehicle.registrationNumber,
			vin: text(vehicle.vin),
			shortDescription: vehicle.shortDescription,
			vehicleYear: text(vehicle.vehicleYear),
			registrationYear: text(vehicle.registrationYear),
			manufactureYear: text(vehicle.manufactureYear),
			fuelType: text(vehicle.fuelType),
			brandId: vehicle.brandId,
			model: vehicle.model,
			modelSpecification: vehicle.modelSpecification,
			transmission: vehicle.transmission,
			// In the odometer's unit, as its owner typed it (decision 0122).
			mileage: text(fromKm(vehicle.mileage, vehicle.odometerUnit)),
			odometerUnit: vehicle.odometerUnit,
			vehicleClass: vehicle.vehicleClass,
			engineCc: text(vehicle.engineCc),
		},
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const vehicleId = idParam(params.slug)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: VehicleSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await or404(updateVehicle(user.id, vehicleId, submission.value))
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
	return redirectWithToast(`/vehicle-details/${encodeId(vehicleId)}`, { type: 'success', key: 'customer:vehicle.updated' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function EditVehiclePage() {
	const { t } = useTranslation('customer')
	const { brands, defaults, plate } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	return (
		<>
			<PageHeader title={t('vehicle.editTitle', { plate })} />
			<VehicleForm id="edit-vehicle" brands={brands} defaults={defaults} lastResult={actionData?.result} submitLabel={t('vehicle.editSubmit')} />
		</>
	)
}
