import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { Icon } from '~/components/icon'
import { PageHeader } from '~/components/page-header'
import { listVehicles } from '~/domain/service-flow/vehicles.server'
import { distanceText } from '~/domain/service-flow/vehicle-kinds'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const t = getFixedT(await getLanguage(request), 'customer')
	const vehicles = await listVehicles(user.id)
	return {
		meta: { title: t('vehicles.title') },
		vehicles: vehicles.map((v) => ({
			slug: encodeId(v.id),
			name: `${v.brandName} ${v.model}`,
			specification: v.modelSpecification,
			registrationNumber: v.registrationNumber,
			year: v.vehicleYear,
			mileage: v.mileage,
			odometerUnit: v.odometerUnit,
			description: v.shortDescription,
		})),
	}
}

export const meta = routeMeta<typeof loader>()

export default function MyVehiclesPage() {
	const { t } = useTranslation('customer')
	const { vehicles } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader
				title={t('vehicles.title')}
				subtitle={t('vehicles.subtitle')}
				actions={
					<>
						<ButtonLink to="/add-vehicle" icon="plus">{t('vehicles.add')}</ButtonLink>
						<ButtonLink to="/claim-vehicle" kind="ghost">{t('transfer.claimLink')}</ButtonLink>
					</>
				}
			/>
			{vehicles.length ? (
				<ul className="vehicle-grid vehicle-grid--large">
					{vehicles.map((vehicle) => (
						<li key={vehicle.slug} className="vehicle-tile card">
							<Icon name="car" />
							<Link to={`/vehicle-details/${vehicle.slug}`} className="vehicle-tile__name">
								{vehicle.name}
							</Link>
							<span className="item__meta">{vehicle.specification}</span>
							<span className="plate">{vehicle.registrationNumber}</span>
							<span className="item__meta">
								{vehicle.year} · {distanceText(t, vehicle.mileage, vehicle.odometerUnit)}
							</span>
							{vehicle.description ? <span className="item__meta">{vehicle.description}</span> : null}
							<span className="vehicle-tile__actions">
								<ButtonLink to={`/new-service-register?vehicle=${vehicle.slug}`} size="small">{t('vehicles.requestService')}</ButtonLink>
								<ButtonLink to={`/edit-vehicle/${vehicle.slug}`} kind="ghost" size="small">{t('vehicles.edit')}</ButtonLink>
							</span>
						</li>
					))}
				</ul>
			) : (
				<div className="empty empty--large">
					<p>{t('vehicles.empty')}</p>
					<ButtonLink to="/add-vehicle">{t('vehicles.addFirst')}</ButtonLink>
				</div>
			)}
		</>
	)
}
