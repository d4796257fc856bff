import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '~/components/page-header'
import { VehicleForm } from '~/components/vehicle-form'
import { getChoices } from '~/domain/reference.server'
import { VehicleSchema } from '~/domain/vehicles'
import { createVehicle, RegistrationTaken } from '~/domain/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { pageMeta } from '~/utils/meta'
import { safeReturnTo } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'customer')
	const { carBrands } = await getChoices(language, ['carBrands'])
	return { meta: { title: t('vehicle.addTitle') }, brands: carBrands }
}

export async function action({ request }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: VehicleSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await createVehicle(user.id, submission.value)
	} catch (error) {
		if (!(error instanceof RegistrationTaken)) throw error
		return data({ result: submission.reply({ fieldErrors: { registrationNumber: [error.key] } }) }, { status: 409 })
	}
	// Added on the way to a new request: back to the request form, where the vehicle now is.
	const returnTo = safeReturnTo(new URL(request.url).searchParams.get('returnTo'), '/my-vehicle')
	return redirectWithToast(returnTo, { type: 'success', key: 'customer:vehicle.added' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function AddVehiclePage() {
	const { t } = useTranslation('customer')
	const { brands } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	return (
		<>
			<PageHeader title={t('vehicle.addTitle')} subtitle={t('vehicle.addSubtitle')} />
			<VehicleForm id="add-vehicle" brands={brands} lastResult={actionData?.result} submitLabel={t('vehicle.addSubmit')} />
		</>
	)
}
