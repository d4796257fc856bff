import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { VehicleForm } from '~/components/vehicle-form'
import { getChoices } from '~/domain/site/reference.server'
import { VehicleSchema } from '~/domain/service-flow/vehicles'
import { createVehicle, RegistrationTaken } from '~/domain/service-flow/vehicles.server'
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
	if (submission.status !== 'success') return data({ result: submission.reply(), taken: null }, { status: 400 })
	try {
		await createVehicle(user.id, submission.value)
	} catch (error) {
		// A plate already registered: the buyer of that car is offered the claim with the seller's code (issue 32).
		const taken = error instanceof RegistrationTaken ? submission.value.registrationNumber : null
		return handleDomainError(error, { as: 'form', submission, data: { taken } })
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
			{actionData?.taken ? (
				<div className="notice claim-offer" id="claim-offer" role="status">
					<p>{t('transfer.takenText', { plate: actionData.taken })}</p>
					<Link className="button button--primary button--small" to={`/claim-vehicle?plate=${encodeURIComponent(actionData.taken)}`}>
						{t('transfer.takenLink')}
					</Link>
				</div>
			) : null}
			<VehicleForm id="add-vehicle" brands={brands} lastResult={actionData?.result} submitLabel={t('vehicle.addSubmit')} />
		</>
	)
}
