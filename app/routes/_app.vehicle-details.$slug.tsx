import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ButtonLink } from '~/components/button-link'
import { ConfirmAction } from '~/components/confirm-action'
import { Item, ListOrEmpty } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { Fact, Panel } from '~/components/panel'
import { StatusBadge } from '~/components/status-badge'
import { deleteVehicle, getVehicle, vehicleHistory } from '~/domain/service-flow/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatMoney, formatNumber } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/utils/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { requestPagePath } from '~/domain/service-flow/status'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const vehicleId = idParam(params.slug)
	const language = await getLanguage(request)
	const vehicle = await or404(getVehicle(user.id, vehicleId))
	const history = await vehicleHistory(user.id, vehicleId, language)
	const t = getFixedT(language, 'customer')
	return {
		meta: { title: `${vehicle.brandName} ${vehicle.model} · ${vehicle.registrationNumber}` },
		slug: encodeId(vehicle.id),
		vehicle: { ...vehicle, title: t('vehicles.detailTitle', { name: `${vehicle.brandName} ${vehicle.model}` }) },
		history: history.map((item) => ({ ...item, slug: encodeId(item.id) })),
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const vehicleId = idParam(params.slug)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	try {
		await or404(deleteVehicle(user.id, vehicleId))
	} catch (error) {
		return handleDomainError(error, { as: 'toast', redirectTo: `/vehicle-details/${encodeId(vehicleId)}`, request })
	}
	return redirectWithToast('/my-vehicle', { type: 'success', key: 'customer:vehicle.deleted' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function VehicleDetailsPage() {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { vehicle, history, slug } = useLoaderData<typeof loader>()
	const facts: Array<[string, React.ReactNode]> = [
		[t('vehicle.registrationNumber'), <span key="plate" className="plate">{vehicle.registrationNumber}</span>],
		[t('vehicle.modelSpecification'), vehicle.modelSpecification],
		[t('vehicle.vehicleYear'), vehicle.vehicleYear],
		[t('vehicle.registrationYear'), vehicle.registrationYear],
		[t('vehicle.manufactureYear'), vehicle.manufactureYear],
		[t('vehicle.fuelType'), vehicle.fuelType ? t(`vehicle.fuelTypes.${vehicle.fuelType}`) : null],
		[t('vehicle.transmission'), t(`vehicle.transmissions.${vehicle.transmission}`)],
		[t('vehicle.mileage'), t('vehicles.mileage', { miles: formatNumber(vehicle.mileage, language) })],
		[t('vehicle.vin'), vehicle.vin],
		[t('vehicle.shortDescription'), vehicle.shortDescription || null],
	]
	return (
		<>
			<PageHeader
				title={vehicle.title}
				actions={
					<>
						<ButtonLink to={`/new-service-register?vehicle=${slug}`}>{t('vehicles.requestService')}</ButtonLink>
						<ButtonLink to={`/edit-vehicle/${slug}`} kind="ghost">{t('vehicles.edit')}</ButtonLink>
					</>
				}
			/>
			<div className="detail-grid">
				<Panel id="vehicle-facts" title={t('vehicles.facts')}>
					<dl className="facts">
						{facts
							.filter(([, value]) => value !== null && value !== undefined && value !== '')
							.map(([label, value]) => (
								<Fact key={label} className="facts__row" label={label}>
									{value}
								</Fact>
							))}
					</dl>
					<div className="danger-zone">
						<ConfirmAction
							id="delete-vehicle"
							label={t('vehicles.delete')}
							title={t('vehicles.deleteTitle')}
							description={t('vehicles.deleteText')}
							confirmLabel={t('vehicles.deleteConfirm')}
							fields={{ intent: 'delete' }}
							triggerClassName="button button--ghost button--small button--danger-text"
							danger
						/>
					</div>
				</Panel>
				<Panel id="vehicle-history" title={t('vehicles.history')}>
					<ListOrEmpty items={history} empty={t('vehicles.noHistory')}>
						{(item) => (
							<Item
								key={item.id}
								title={<Link to={requestPagePath(item.status, item.slug)}>{item.services.join(', ')}</Link>}
								side={
									<>
										<StatusBadge kind="request" status={item.status} />
										{item.finalPriceCents !== null ? <p className="item__highlight">{formatMoney(item.finalPriceCents, language)}</p> : null}
									</>
								}
							>
								<p className="item__meta">{[formatDate(item.preferredAt, language), item.workshopName].filter(Boolean).join(' · ')}</p>
							</Item>
						)}
					</ListOrEmpty>
				</Panel>
			</div>
		</>
	)
}
