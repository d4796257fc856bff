import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { VehicleForm } from '~/components/vehicle-form'
import { getChoices } from '~/domain/site/reference.server'
import { VehicleSchema } from '~/domain/service-flow/vehicles'
import { createVehicle } from '~/domain/service-flow/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError } from '~/utils/route-helpers.server'
import { safeRedirect } from '~/utils/safe-redirect'
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
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: VehicleSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await createVehicle(user.id, submission.value)
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
	// Added on the way to a new request: back to the request form, where the vehicle now is.
	const returnTo = safeRedirect(new URL(request.url).searchParams.get('returnTo'), '/my-vehicle')
	return redirectWithToast(returnTo, { type: 'success', key: 'customer:vehicle.added' }, { request })
}

export const meta = routeMeta<typeof loader>()

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
