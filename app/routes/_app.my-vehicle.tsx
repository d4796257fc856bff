import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/icon'
import { PageHeader } from '~/components/page-header'
import { listVehicles } from '~/domain/vehicles.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { formatNumber } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
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
			description: v.shortDescription,
		})),
	}
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function MyVehiclesPage() {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { vehicles } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader
				title={t('vehicles.title')}
				subtitle={t('vehicles.subtitle')}
				actions={
					<Link to="/add-vehicle" className="button button--primary">
						<Icon name="plus" />
						{t('vehicles.add')}
					</Link>
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
								{vehicle.year} · {t('vehicles.mileage', { miles: formatNumber(vehicle.mileage, language) })}
							</span>
							{vehicle.description ? <span className="item__meta">{vehicle.description}</span> : null}
							<span className="vehicle-tile__actions">
								<Link to={`/new-service-register?vehicle=${vehicle.slug}`} className="button button--primary button--small">
									{t('vehicles.requestService')}
								</Link>
								<Link to={`/edit-vehicle/${vehicle.slug}`} className="button button--ghost button--small">
									{t('vehicles.edit')}
								</Link>
							</span>
						</li>
					))}
				</ul>
			) : (
				<div className="empty empty--large">
					<p>{t('vehicles.empty')}</p>
					<Link to="/add-vehicle" className="button button--primary">
						{t('vehicles.addFirst')}
					</Link>
				</div>
			)}
		</>
	)
}
