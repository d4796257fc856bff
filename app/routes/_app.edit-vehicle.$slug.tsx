import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '~/components/page-header'
import { VehicleForm } from '~/components/vehicle-form'
import { getChoices } from '~/domain/reference.server'
import { VehicleSchema } from '~/domain/vehicles'
import { getVehicle, RegistrationTaken, updateVehicle } from '~/domain/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
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
			mileage: text(vehicle.mileage),
		},
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const vehicleId = idParam(params.slug)
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: VehicleSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await or404(updateVehicle(user.id, vehicleId, submission.value))
	} catch (error) {
		if (!(error instanceof RegistrationTaken)) throw error
		return data({ result: submission.reply({ fieldErrors: { registrationNumber: [error.key] } }) }, { status: 409 })
	}
	return redirectWithToast(`/vehicle-details/${encodeId(vehicleId)}`, { type: 'success', key: 'customer:vehicle.updated' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

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
