import { Link, useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type WorkshopCard as Card, type WorkshopSort } from '~/domain/directory/workshops'
import { fallbackLanguage } from '~/i18n/config'
import { type RootLoaderData } from '~/root-data'
import { requestFormPath } from '~/domain/booking/free-times'
import { formatDateTime, formatRating } from '~/utils/format'
import { useRequestFormHref } from './free-time-link'
import { ResponseTime } from './response-time'
import { ResponsiveImage } from './responsive-image'
import { Stars } from './stars'

/**
 * A workshop in the list and on the home page: logo, name, city, stars, review count, its next free
 * time (a link to ask for an offer then), main services.
 * No "featured" badge: a paid package changes no place in a list; it shows in <PromotedWorkshops>.
 */
export function WorkshopCard({ workshop, headingLevel = 3, compact = false }: { workshop: Card; headingLevel?: 2 | 3; compact?: boolean }) {
	const { t } = useTranslation('public')
	const language = useRouteLoaderData<RootLoaderData>('root')?.language ?? fallbackLanguage
	const Heading = headingLevel === 2 ? 'h2' : 'h3'
	const href = `/workshop-details/${workshop.id}`
	const askHref = useRequestFormHref()
	// Its next free time (workshops.next_free_at, kept by the booking job): a link to the request form with it filled in.
	const nextFree = workshop.nextFreeAt && !compact ? { label: formatDateTime(workshop.nextFreeAt, language), href: askHref(requestFormPath(workshop.id, workshop.nextFreeAt)) } : null
	return (
		<article className="workshop-card">
			<div className="workshop-card__logo">
				{workshop.logoImage ? (
					<ResponsiveImage image={workshop.logoImage} alt="" sizes="72px" width={72} />
				) : workshop.logo ? (
					<img src={workshop.logo} alt="" width={72} height={72} loading="lazy" decoding="async" />
				) : (
					<span aria-hidden="true">{workshop.name.slice(0, 1)}</span>
				)}
			</div>
			<div className="workshop-card__body">
				<Heading className="workshop-card__name">
					<Link to={href} className="workshop-card__link">
						{workshop.name}
					</Link>
				</Heading>
				{workshop.city ? <p className="workshop-card__city">{workshop.city}</p> : null}
				<p className="rating-line">
					<Stars rating={workshop.ratingAverage} size="small" />
					{workshop.reviewCount > 0 ? (
						<>
							<span className="rating-line__value" aria-hidden="true">
								{formatRating(workshop.ratingAverage, language)}
							</span>
							<span className="rating-line__count">
								{t(workshop.reviewCount === 1 ? 'rating.reviewsOne' : 'rating.reviews', { total: workshop.reviewCount })}
							</span>
						</>
					) : (
						<span className="rating-line__count">{t('rating.noReviews')}</span>
					)}
				</p>
				{compact ? null : <ResponseTime minutes={workshop.responseMinutes} />}
				{nextFree ? (
					<p className="workshop-card__free">
						{t('booking:public.nextFree')}{' '}
						{nextFree.href ? (
							<Link to={nextFree.href} aria-label={t('booking:public.askAt', { time: nextFree.label })}>
								<time dateTime={workshop.nextFreeAt!}>{nextFree.label}</time>
							</Link>
						) : (
							<time dateTime={workshop.nextFreeAt!}>{nextFree.label}</time>
						)}
					</p>
				) : null}
				{workshop.services.length && !compact ? (
					<ul className="tags" aria-label={t('workshop.mainServices')}>
						{workshop.services.map((service) => (
							<li key={service} className="tag">
								{service}
							</li>
						))}
					</ul>
				) : null}
			</div>
		</article>
	)
}

/**
 * The paid workshops above the list (issue 32, decision 0128): a block of its own, labelled as an
 * ad as EU consumer law asks of paid placement, that says the list below is not ordered by payment.
 * Nothing when no paid workshop passes the filters.
 */
export function PromotedWorkshops({ workshops, sort }: { workshops: Card[]; sort: WorkshopSort }) {
	const { t } = useTranslation('public')
	if (!workshops.length) return null
	return (
		<aside className="promoted" aria-labelledby="promoted-title" data-testid="promoted-workshops">
			<div className="promoted__head">
				<h2 id="promoted-title" className="promoted__label">
					{t('promoted.label')}
				</h2>
				<p className="promoted__note">{t('promoted.note', { sort: t(`list.sorts.${sort}`) })}</p>
			</div>
			<ul className="workshop-grid promoted__grid">
				{workshops.map((workshop) => (
					<li key={workshop.id}>
						{/* Short cards, so that the sorted list is not pushed far down a phone's screen. */}
						<WorkshopCard workshop={workshop} compact />
					</li>
				))}
			</ul>
		</aside>
	)
}
