import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/icon'
import { PageHeader } from '~/components/page-header'
import { StatusBadge } from '~/components/status-badge'
import { adminDashboard, customerDashboard, workshopDashboard } from '~/domain/dashboard.server'
import { type Language } from '~/i18n/config'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { formatDateTime, formatMoney, formatNumber, formatRating } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: ['customer', 'workshop', 'admin'] })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'account')
	const meta = { title: t('dashboard.metaTitle') }
	if (user.role === 'customer') {
		return { meta, language, role: 'customer' as const, firstName: user.firstName, customer: await customerDashboard(user.id, language) }
	}
	if (user.role === 'workshop') {
		if (!user.workshop) throw new Response('Not found', { status: 404 })
		return {
			meta,
			language,
			role: 'workshop' as const,
			firstName: user.firstName,
			workshop: await workshopDashboard(user.workshop.id, language),
		}
	}
	return { meta, language, role: user.role, firstName: user.firstName, admin: await adminDashboard() }
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function DashboardPage() {
	const data = useLoaderData<typeof loader>()
	const { t } = useTranslation('account')
	return (
		<>
			<PageHeader title={t('dashboard.title')} subtitle={t('dashboard.greeting', { name: data.firstName })} />
			{'customer' in data && data.customer ? <CustomerDashboard data={data.customer} language={data.language} /> : null}
			{'workshop' in data && data.workshop ? <WorkshopDashboard data={data.workshop} language={data.language} /> : null}
			{'admin' in data && data.admin ? <AdminDashboard counts={data.admin} /> : null}
		</>
	)
}

function Stat({ label, value, to }: { label: string; value: React.ReactNode; to?: string }) {
	const body = (
		<>
			<span className="stat__value">{value}</span>
			<span className="stat__label">{label}</span>
		</>
	)
	return <li className="stat">{to ? <Link to={to}>{body}</Link> : body}</li>
}

function CustomerDashboard({
	data,
	language,
}: {
	data: Awaited<ReturnType<typeof customerDashboard>>
	language: Language
}) {
	const { t } = useTranslation('account')
	return (
		<div className="dashboard">
			<ul className="stats" aria-label={t('dashboard.summary')}>
				<Stat label={t('dashboard.customer.vehicles')} value={data.stats.vehicles} to="/my-vehicle" />
				<Stat label={t('dashboard.customer.openRequests')} value={data.stats.openRequests} to="/my-requests" />
				<Stat label={t('dashboard.customer.offersWaiting')} value={data.stats.offersWaiting} />
				<Stat label={t('dashboard.customer.inProgress')} value={data.stats.inProgress} />
			</ul>

			<div className="call-to-action card">
				<div>
					<h2>{t('dashboard.customer.ctaTitle')}</h2>
					<p>{t('dashboard.customer.ctaText')}</p>
				</div>
				<Link to="/new-service-register" className="button button--accent button--large">
					<Icon name="plus" />
					{t('dashboard.customer.ctaButton')}
				</Link>
			</div>

			<section className="panel" aria-labelledby="awaiting-title">
				<h2 id="awaiting-title">{t('dashboard.customer.awaitingTitle')}</h2>
				{data.awaitingDecision.length ? (
					<ul className="item-list">
						{data.awaitingDecision.map((request) => (
							<li key={request.id} className="item">
								<div className="item__main">
									<p className="item__title">{request.services.join(', ')}</p>
									<p className="item__meta">
										{request.vehicle} · {request.registrationNumber}
									</p>
								</div>
								<div className="item__side">
									<p className="item__highlight">
										{t('dashboard.customer.offerCount', { count: request.offerCount })}
										{request.lowestPriceCents !== null
											? ` · ${t('dashboard.customer.from', { price: formatMoney(request.lowestPriceCents, language) })}`
											: null}
									</p>
									<Link to={`/compaire-offers/${encodeId(request.id)}`} className="button button--primary button--small">
										{t('dashboard.customer.compare')}
									</Link>
								</div>
							</li>
						))}
					</ul>
				) : (
					<p className="empty">{t('dashboard.customer.noneAwaiting')}</p>
				)}
			</section>

			<section className="panel" aria-labelledby="requests-title">
				<h2 id="requests-title">{t('dashboard.customer.requestsTitle')}</h2>
				{data.openRequests.length ? (
					<ul className="item-list">
						{data.openRequests.map((request) => (
							<li key={request.id} className="item">
								<div className="item__main">
									<p className="item__title">
										<Link to={`/request-details/${encodeId(request.id)}`}>{request.services.join(', ')}</Link>
									</p>
									<p className="item__meta">
										{request.vehicle} · {request.registrationNumber} · {request.location}
									</p>
								</div>
								<div className="item__side">
									<StatusBadge kind="request" status={request.status} />
									<p className="item__meta">{formatDateTime(request.preferredAt, language)}</p>
								</div>
							</li>
						))}
					</ul>
				) : (
					<p className="empty">{t('dashboard.customer.noRequests')}</p>
				)}
			</section>

			<section className="panel" aria-labelledby="vehicles-title">
				<div className="panel__head">
					<h2 id="vehicles-title">{t('dashboard.customer.vehiclesTitle')}</h2>
					<Link to="/add-vehicle" className="button button--ghost button--small">
						{t('dashboard.customer.addVehicle')}
					</Link>
				</div>
				{data.vehicles.length ? (
					<ul className="vehicle-grid">
						{data.vehicles.map((vehicle) => (
							<li key={vehicle.id} className="vehicle-tile">
								<Icon name="car" />
								<Link to={`/vehicle-details/${encodeId(vehicle.id)}`} className="vehicle-tile__name">
									{vehicle.name}
								</Link>
								<span className="plate">{vehicle.registrationNumber}</span>
								<span className="item__meta">
									{[vehicle.year, t('dashboard.customer.mileage', { miles: formatNumber(vehicle.mileage, language) })]
										.filter(Boolean)
										.join(' · ')}
								</span>
							</li>
						))}
					</ul>
				) : (
					<p className="empty">{t('dashboard.customer.noVehicles')}</p>
				)}
			</section>
		</div>
	)
}

function WorkshopDashboard({
	data,
	language,
}: {
	data: Awaited<ReturnType<typeof workshopDashboard>>
	language: Language
}) {
	const { t } = useTranslation('account')
	const { summary } = data
	return (
		<div className="dashboard">
			<ul className="stats" aria-label={t('dashboard.summary')}>
				<Stat
					label={t('dashboard.workshop.rating', { count: summary.reviewCount })}
					value={summary.reviewCount ? formatRating(summary.ratingAverage, language) : '–'}
					to="/customer-reviews"
				/>
				<Stat label={t('dashboard.workshop.pendingOffers')} value={summary.pendingOffers} to="/workshop-bid-history" />
				<Stat label={t('dashboard.workshop.jobsInProgress')} value={data.jobs.length} />
				<Stat
					label={t('dashboard.workshop.earnedThisMonth', { count: summary.completedThisMonth })}
					value={formatMoney(summary.earnedThisMonthCents, language)}
					to="/workshop-service-history"
				/>
			</ul>
			{summary.packageName ? (
				<p className="notice">
					{t('dashboard.workshop.package', { name: summary.packageName })}{' '}
					<Link to="/subscription">{t('dashboard.workshop.packageLink')}</Link>
				</p>
			) : null}

			<section className="panel" aria-labelledby="new-requests-title">
				<h2 id="new-requests-title">{t('dashboard.workshop.newRequestsTitle')}</h2>
				{data.newRequests.length ? (
					<ul className="item-list">
						{data.newRequests.map((request) => (
							<li key={request.id} className="item">
								<div className="item__main">
									<p className="item__title">
										<Link to={`/customer-request-details/${encodeId(request.id)}`}>{request.services.join(', ')}</Link>
									</p>
									<p className="item__meta">
										{[request.vehicle, request.year, request.city ?? request.location].filter(Boolean).join(' · ')}
									</p>
								</div>
								<div className="item__side">
									<p className="item__meta">
										{t('dashboard.workshop.wanted', { date: formatDateTime(request.preferredAt, language) })}
									</p>
									<p className="item__meta">{t('dashboard.workshop.offersSoFar', { count: request.offerCount })}</p>
									<Link
										to={`/customer-request-details/${encodeId(request.id)}`}
										className="button button--primary button--small"
									>
										{t('dashboard.workshop.makeOffer')}
									</Link>
								</div>
							</li>
						))}
					</ul>
				) : (
					<p className="empty">{t('dashboard.workshop.noNewRequests')}</p>
				)}
			</section>

			<section className="panel" aria-labelledby="jobs-title">
				<h2 id="jobs-title">{t('dashboard.workshop.jobsTitle')}</h2>
				{data.jobs.length ? (
					<ul className="item-list">
						{data.jobs.map((job) => (
							<li key={job.offerId} className="item">
								<div className="item__main">
									<p className="item__title">
										<Link to={`/workshop-bid-details/${encodeId(job.offerId)}`}>{job.vehicle}</Link>
									</p>
									<p className="item__meta">
										{job.customer} · {formatDateTime(job.preferredAt, language)}
									</p>
								</div>
								<div className="item__side">
									<StatusBadge kind="offer" status="selected" />
									<p className="item__highlight">{formatMoney(job.priceCents, language)}</p>
								</div>
							</li>
						))}
					</ul>
				) : (
					<p className="empty">{t('dashboard.workshop.noJobs')}</p>
				)}
			</section>
		</div>
	)
}

function AdminDashboard({ counts }: { counts: Awaited<ReturnType<typeof adminDashboard>> }) {
	const { t } = useTranslation('account')
	return (
		<div className="dashboard">
			<ul className="stats" aria-label={t('dashboard.summary')}>
				<Stat label={t('dashboard.admin.customers')} value={counts.customers} />
				<Stat label={t('dashboard.admin.workshops')} value={counts.workshops} />
				<Stat label={t('dashboard.admin.openRequests')} value={counts.openRequests} />
				<Stat label={t('dashboard.admin.offersThisMonth')} value={counts.offersThisMonth} />
				<Stat label={t('dashboard.admin.unhandledMessages')} value={counts.unhandledMessages} />
			</ul>
			<Link to="/admin" className="button button--primary">
				<Icon name="shield" />
				{t('dashboard.admin.open')}
			</Link>
		</div>
	)
}
