import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { BillWaiting, ExtraWorkWaiting } from '~/components/request-list'
import { ButtonLink } from '~/components/button-link'
import { Icon } from '~/components/icon'
import { Item, ListOrEmpty } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { StatusBadge } from '~/components/status-badge'
import { adminDashboard, customerDashboard, workshopDashboard } from '~/domain/service-flow/dashboard.server'
import { offerAllowanceNotice } from '~/domain/billing/subscription-page.server'
import { allowanceReached, type OfferAllowance } from '~/domain/billing/allowance'
import { OfferAllowanceNotice } from '~/components/offer-allowance'
import { distanceText } from '~/domain/service-flow/vehicle-kinds'
import { type Language } from '~/i18n/config'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { isConfirmedAdministrator, requireUser, workshopActor } from '~/utils/auth.server'
import { STEP_UP_PATH } from '~/utils/route-access'
import { formatDateTime, formatMoney, formatRating } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
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
		const { workshopId } = workshopActor(user)
		const [workshop, allowance] = await Promise.all([workshopDashboard(workshopId, language), offerAllowanceNotice(workshopId, language)])
		return { meta, language, role: 'workshop' as const, firstName: user.firstName, workshop, allowance }
	}
	// The administration's figures once the sign-in is confirmed by a second factor; before that, the way to confirm it (decision 0156).
	if (!isConfirmedAdministrator(user)) return { meta, language, role: user.role, firstName: user.firstName, confirmAdmin: true as const }
	return { meta, language, role: user.role, firstName: user.firstName, admin: await adminDashboard() }
}

export const meta = routeMeta<typeof loader>()

export default function DashboardPage() {
	const data = useLoaderData<typeof loader>()
	const { t } = useTranslation('account')
	return (
		<>
			<PageHeader title={t('dashboard.title')} subtitle={t('dashboard.greeting', { name: data.firstName })} />
			{'customer' in data && data.customer ? <CustomerDashboard data={data.customer} language={data.language} /> : null}
			{'workshop' in data && data.workshop ? <WorkshopDashboard data={data.workshop} allowance={data.allowance} language={data.language} /> : null}
			{'admin' in data && data.admin ? <AdminDashboard counts={data.admin} /> : null}
			{'confirmAdmin' in data ? <ConfirmAdministrator /> : null}
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

			{data.everRequested ? (
				<div className="call-to-action card">
					<div>
						<h2>{t('dashboard.customer.ctaTitle')}</h2>
						<p>{t('dashboard.customer.ctaText')}</p>
					</div>
					<ButtonLink to="/new-service-register" kind="accent" size="large" icon="plus">{t('dashboard.customer.ctaButton')}</ButtonLink>
				</div>
			) : (
				<CustomerFirstSteps hasVehicle={data.vehicles.length > 0} />
			)}

			<Panel id="awaiting-title" title={t('dashboard.customer.awaitingTitle')}>
				<ListOrEmpty items={data.awaitingDecision} empty={t('dashboard.customer.noneAwaiting')}>
					{(request) => (
						<Item
							key={request.id}
							title={request.services.join(', ')}
							side={
								<>
									<p className="item__highlight">
										{t('dashboard.customer.offerCount', { count: request.offerCount })}
										{request.lowestPriceCents !== null
											? ` · ${t('dashboard.customer.from', { price: formatMoney(request.lowestPriceCents, language) })}`
											: null}
									</p>
									<ButtonLink to={`/compaire-offers/${encodeId(request.id)}`} size="small">{t('dashboard.customer.compare')}</ButtonLink>
								</>
							}
						>
							<p className="item__meta">
								{request.vehicle} · {request.registrationNumber}
							</p>
						</Item>
					)}
				</ListOrEmpty>
			</Panel>

			<Panel id="requests-title" title={t('dashboard.customer.requestsTitle')}>
				<ListOrEmpty items={data.openRequests} empty={t('dashboard.customer.noRequests')}>
					{(request) => (
						<Item
							key={request.id}
							title={<Link to={`/request-details/${encodeId(request.id)}`}>{request.services.join(', ')}</Link>}
							side={
								<>
									<StatusBadge kind="request" status={request.status} />
									<p className="item__meta">{formatDateTime(request.preferredAt, language)}</p>
								</>
							}
						>
							<p className="item__meta">
								{request.vehicle} · {request.registrationNumber} · {request.location}
							</p>
							<ExtraWorkWaiting requestId={request.id} count={request.extraWorkWaiting} />
							<BillWaiting requestId={request.id} waiting={request.billWaiting} />
						</Item>
					)}
				</ListOrEmpty>
			</Panel>

			<Panel
				id="vehicles-title"
				title={t('dashboard.customer.vehiclesTitle')}
				actions={
					<ButtonLink to="/add-vehicle" kind="ghost" size="small">{t('dashboard.customer.addVehicle')}</ButtonLink>
				}
			>
				<ListOrEmpty items={data.vehicles} empty={t('dashboard.customer.noVehicles')} className="vehicle-grid">
					{(vehicle) => (
						<li key={vehicle.id} className="vehicle-tile">
							<Icon name="car" />
							<Link to={`/vehicle-details/${encodeId(vehicle.id)}`} className="vehicle-tile__name">
								{vehicle.name}
							</Link>
							<span className="plate">{vehicle.registrationNumber}</span>
							<span className="item__meta">
								{[vehicle.year, distanceText(t, vehicle.mileage, vehicle.odometerUnit)]
									.filter(Boolean)
									.join(' · ')}
							</span>
						</li>
					)}
				</ListOrEmpty>
			</Panel>
		</div>
	)
}

/** A new customer's way to a first request: a vehicle, then the request, then the offers. */
function CustomerFirstSteps({ hasVehicle }: { hasVehicle: boolean }) {
	const { t } = useTranslation('account')
	const steps = [
		{ key: 'vehicle', done: hasVehicle, to: '/add-vehicle?returnTo=/new-service-register', current: !hasVehicle },
		{ key: 'request', done: false, to: '/new-service-register', current: hasVehicle },
		{ key: 'choose', done: false, to: null, current: false },
	] as const
	return (
		<Panel id="first-steps-title" title={t('dashboard.onboarding.customer.title')}>
			<ol className="steps steps--onboarding">
				{steps.map((step, index) => (
					<li key={step.key} className={`step${step.current ? ' step--current' : ''}`} aria-current={step.current ? 'step' : undefined}>
						<span className="step__number" aria-hidden="true">
							{step.done ? '✓' : index + 1}
						</span>
						<h3>{t(`dashboard.onboarding.customer.${step.key}Title`)}</h3>
						<p>{t(`dashboard.onboarding.customer.${step.key}Text`)}</p>
						{step.current && step.to ? (
							<ButtonLink to={step.to} kind="accent">
								{t(`dashboard.onboarding.customer.${step.key}Button`)}
							</ButtonLink>
						) : null}
					</li>
				))}
			</ol>
		</Panel>
	)
}

/** A workshop's profile checklist until every part is done, with what the essential parts unlock. */
function WorkshopChecklist({ profile }: { profile: Awaited<ReturnType<typeof workshopDashboard>>['profile'] }) {
	const { t } = useTranslation('account')
	if (profile.doneCount === profile.steps.length) return null
	return (
		<Panel id="checklist-title" title={t('dashboard.onboarding.workshop.title')}>
			<p className="onboarding__progress">
				<progress max={profile.steps.length} value={profile.doneCount} aria-labelledby="checklist-progress" />
				<span id="checklist-progress">{t('dashboard.onboarding.workshop.progress', { done: profile.doneCount, total: profile.steps.length })}</span>
			</p>
			<ul className="check-list check-list--todo">
				<li className={profile.listed ? 'is-done' : undefined}>
					{t(profile.listed ? 'dashboard.onboarding.workshop.listed' : 'dashboard.onboarding.workshop.notListed')}
				</li>
				<li className={profile.receivesRequests ? 'is-done' : undefined}>
					{t(profile.receivesRequests ? 'dashboard.onboarding.workshop.receives' : 'dashboard.onboarding.workshop.notReceiving')}
				</li>
			</ul>
			<ul className="check-list check-list--todo check-list--columns">
				{profile.steps.map((step) => (
					<li key={step.key} className={step.done ? 'is-done' : undefined}>
						<span className="visually-hidden">{t(step.done ? 'dashboard.onboarding.workshop.done' : 'dashboard.onboarding.workshop.todo')}: </span>
						{step.done ? (
							<span>{t(`dashboard.onboarding.workshop.steps.${step.key}`)}</span>
						) : (
							<Link to={step.href}>{t(`dashboard.onboarding.workshop.steps.${step.key}`)}</Link>
						)}
					</li>
				))}
			</ul>
		</Panel>
	)
}

function WorkshopDashboard({
	data,
	allowance,
	language,
}: {
	data: Awaited<ReturnType<typeof workshopDashboard>>
	allowance: OfferAllowance
	language: Language
}) {
	const { t } = useTranslation('account')
	const { summary } = data
	// At the month's limit the open requests no longer invite an offer (issue 32): they lead to the upgrade.
	const limitReached = allowanceReached(allowance)
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
			<WorkshopChecklist profile={data.profile} />
			{summary.packageName ? (
				<p className="notice">
					{t('dashboard.workshop.package', { name: summary.packageName })}{' '}
					<Link to="/subscription">{t('dashboard.workshop.packageLink')}</Link>
				</p>
			) : null}
			<OfferAllowanceNotice allowance={allowance} />

			<Panel id="new-requests-title" title={t('dashboard.workshop.newRequestsTitle')}>
				<ListOrEmpty items={data.newRequests} empty={t('dashboard.workshop.noNewRequests')}>
					{(request) => {
						const href = `/customer-request-details/${encodeId(request.id)}`
						return (
							<Item
								key={request.id}
								title={<Link to={href}>{request.services.join(', ')}</Link>}
								side={
									<>
										<p className="item__meta">{t('dashboard.workshop.wanted', { date: formatDateTime(request.preferredAt, language) })}</p>
										<p className="item__meta">{t('dashboard.workshop.offersSoFar', { count: request.offerCount })}</p>
										{limitReached ? (
											<ButtonLink to="/subscription" size="small" kind="ghost">{t('workshop:offer.upgradeToAnswer')}</ButtonLink>
										) : (
											<ButtonLink to={href} size="small">{t('dashboard.workshop.makeOffer')}</ButtonLink>
										)}
									</>
								}
							>
								<p className="item__meta">{[request.vehicle, request.year, request.city ?? request.location].filter(Boolean).join(' · ')}</p>
							</Item>
						)
					}}
				</ListOrEmpty>
			</Panel>

			<Panel id="jobs-title" title={t('dashboard.workshop.jobsTitle')}>
				<ListOrEmpty items={data.jobs} empty={t('dashboard.workshop.noJobs')}>
					{(job) => (
						<Item
							key={job.offerId}
							title={<Link to={`/workshop-bid-details/${encodeId(job.offerId)}`}>{job.vehicle}</Link>}
							side={
								<>
									<StatusBadge kind="offer" status="selected" />
									<p className="item__highlight">{formatMoney(job.priceCents, language)}</p>
								</>
							}
						>
							<p className="item__meta">
								{job.customer} · {formatDateTime(job.preferredAt, language)}
							</p>
						</Item>
					)}
				</ListOrEmpty>
			</Panel>
		</div>
	)
}

/** An administrator signed in by a password alone: the administration waits for a second factor. */
function ConfirmAdministrator() {
	const { t } = useTranslation('account')
	return (
		<div className="dashboard">
			<Panel id="confirm-admin" title={t('dashboard.admin.confirmTitle')}>
				<p>{t('dashboard.admin.confirmText')}</p>
				<ButtonLink to={STEP_UP_PATH} icon="shield">
					{t('dashboard.admin.confirm')}
				</ButtonLink>
			</Panel>
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
			<ButtonLink to="/admin" icon="shield">{t('dashboard.admin.open')}</ButtonLink>
		</div>
	)
}
