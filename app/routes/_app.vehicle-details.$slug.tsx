import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmAction } from '~/components/confirm-action'
import { PageHeader } from '~/components/page-header'
import { StatusBadge } from '~/components/status-badge'
import { DomainError } from '~/domain/errors'
import { deleteVehicle, getVehicle, vehicleHistory } from '~/domain/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatMoney, formatNumber } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

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
	const formData = await request.formData()
	await validateCsrf(request, formData)
	try {
		await or404(deleteVehicle(user.id, vehicleId))
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return redirectWithToast(`/vehicle-details/${encodeId(vehicleId)}`, { type: 'error', key: error.key }, { request })
	}
	return redirectWithToast('/my-vehicle', { type: 'success', key: 'customer:vehicle.deleted' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

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
						<Link to={`/new-service-register?vehicle=${slug}`} className="button button--primary">
							{t('vehicles.requestService')}
						</Link>
						<Link to={`/edit-vehicle/${slug}`} className="button button--ghost">
							{t('vehicles.edit')}
						</Link>
					</>
				}
			/>
			<div className="detail-grid">
				<section className="panel" aria-labelledby="vehicle-facts">
					<h2 id="vehicle-facts">{t('vehicles.facts')}</h2>
					<dl className="facts">
						{facts
							.filter(([, value]) => value !== null && value !== undefined && value !== '')
							.map(([label, value]) => (
								<div key={label} className="facts__row">
									<dt>{label}</dt>
									<dd>{value}</dd>
								</div>
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
				</section>
				<section className="panel" aria-labelledby="vehicle-history">
					<h2 id="vehicle-history">{t('vehicles.history')}</h2>
					{history.length ? (
						<ul className="item-list">
							{history.map((item) => (
								<li key={item.id} className="item">
									<div className="item__main">
										<p className="item__title">
											<Link to={`/${item.status === 'completed' || item.status === 'cancelled' ? 'service-details' : 'request-details'}/${item.slug}`}>
												{item.services.join(', ')}
											</Link>
										</p>
										<p className="item__meta">
											{[formatDate(item.preferredAt, language), item.workshopName].filter(Boolean).join(' · ')}
										</p>
									</div>
									<div className="item__side">
										<StatusBadge kind="request" status={item.status} />
										{item.finalPriceCents !== null ? <p className="item__highlight">{formatMoney(item.finalPriceCents, language)}</p> : null}
									</div>
								</li>
							))}
						</ul>
					) : (
						<p className="empty">{t('vehicles.noHistory')}</p>
					)}
				</section>
			</div>
		</>
	)
}
