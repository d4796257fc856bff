import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from 'react-router'
import { Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormAlert, IntentButton } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { formatTransferCode } from '~/domain/service-flow/vehicle-transfer'
import { createTransfer, openTransfer, revokeTransfer } from '~/domain/service-flow/vehicle-transfer.server'
import { getVehicle } from '~/domain/service-flow/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { getEnv } from '~/utils/env.server'
import { formatDateTime } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * Selling the car (issue 32, decision 0123): its owner makes a one-time transfer code for the
 * buyer, shown once, or takes it back. The owner's only: anyone else's vehicle is 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const vehicle = await or404(getVehicle(user.id, idParam(params.slug)))
	const language = await getLanguage(request)
	const t = getFixedT(language, 'customer')
	const open = await openTransfer(user.id, vehicle.id)
	return {
		meta: { title: t('transfer.title', { plate: vehicle.registrationNumber }) },
		slug: encodeId(vehicle.id),
		plate: vehicle.registrationNumber,
		name: `${vehicle.brandName} ${vehicle.model}`,
		openUntil: open?.expiresAt.toISOString() ?? null,
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const vehicleId = idParam(params.slug)
	const here = `/vehicle-details/${encodeId(vehicleId)}/transfer`
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const intent = formData.get('intent')
	if (intent === 'revokeTransfer') {
		await or404(revokeTransfer(user.id, vehicleId))
		return redirectWithToast(here, { type: 'success', key: 'customer:transfer.revoked' }, { request })
	}
	if (intent !== 'createTransfer') throw new Response('Not found', { status: 404 })
	try {
		const { code, expiresAt } = await or404(createTransfer(user.id, vehicleId))
		// Shown on this answer only: the page without JavaScript shows it as well; only its hash is kept.
		return data({ code: formatTransferCode(code), link: `${getEnv().APP_URL}/claim-vehicle?code=${code}`, expiresAt: expiresAt.toISOString(), error: null })
	} catch (error) {
		return handleDomainError(error, { as: 'data', data: (text) => ({ code: null, link: null, expiresAt: null, error: text }) })
	}
}

export const meta = routeMeta<typeof loader>()

export default function VehicleTransferPage() {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { slug, plate, name, openUntil } = useLoaderData<typeof loader>()
	const made = useActionData<typeof action>()
	return (
		<>
			<PageHeader title={t('transfer.title', { plate })} subtitle={name} />
			<div className="stack">
				<Panel id="transfer" title={t('transfer.howTitle')}>
					<ul className="transfer-how">
						<li>{t('transfer.howMoves')}</li>
						<li>{t('transfer.howStays')}</li>
						<li>{t('transfer.howCode')}</li>
					</ul>
					<FormAlert id="transfer-error" errors={made?.error ? [made.error] : undefined} />
					{made?.code ? (
						<div className="notice transfer-code" role="status">
							<p>{t('transfer.codeIs')}</p>
							<p className="transfer-code__value" data-testid="transfer-code">
								{made.code}
							</p>
							<p>{t('transfer.codeUntil', { date: formatDateTime(made.expiresAt, language) })}</p>
							<p className="item__meta">{t('transfer.linkIs')}</p>
							<p className="transfer-code__link">{made.link}</p>
							<p className="item__meta">{t('transfer.shownOnce')}</p>
						</div>
					) : openUntil ? (
						<p className="notice">{t('transfer.openUntil', { date: formatDateTime(openUntil, language) })}</p>
					) : null}
					<div className="transfer-actions">
						<IntentButton intent="createTransfer" className="button button--primary">
							{openUntil || made?.code ? t('transfer.makeNew') : t('transfer.make')}
						</IntentButton>
						{openUntil || made?.code ? <IntentButton intent="revokeTransfer">{t('transfer.revoke')}</IntentButton> : null}
					</div>
				</Panel>
				<p>
					<Link to={`/vehicle-details/${slug}`}>{t('transfer.back')}</Link>
				</p>
			</div>
		</>
	)
}
