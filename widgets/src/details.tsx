import { useEffect, useId, useState } from 'react'
import { type OpeningHours, type PublicReview } from '~/domain/directory/workshops'
import { formatDate, formatDateTime, formatMoney, formatRating } from '~/utils/format'
import { type ApiWorkshopDetails } from './api'
import { useWidget } from './context'
import { Failure, Loading, Pager, Stars, reviewCountText } from './ui'

type State = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; details: ApiWorkshopDetails }

/**
 * One workshop: the essentials of its profile, its average rating with half stars, "Based on N
 * reviews", and its reviews with the workshop's replies, a page at a time. The full profile is a
 * link to the portal.
 */
export function DetailsWidget({ workshopId }: { workshopId: string }) {
	const { api, t, language } = useWidget()
	const id = useId()
	const [page, setPage] = useState(1)
	const [state, setState] = useState<State>({ status: 'loading' })
	const [showReviews, setShowReviews] = useState(false)
	const [attempt, setAttempt] = useState(0)

	useEffect(() => {
		const controller = new AbortController()
		setState((previous) => (previous.status === 'ready' ? previous : { status: 'loading' }))
		api.details(workshopId, page, controller.signal).then(
			(details) => setState({ status: 'ready', details }),
			(error: unknown) => controller.signal.aborted || setState({ status: 'error', error }),
		)
		return () => controller.abort()
	}, [api, workshopId, page, attempt])

	if (state.status === 'loading') return <Loading />
	if (state.status === 'error') return <Failure error={state.error} retry={() => setAttempt((n) => n + 1)} />

	const { workshop, rating, reviews } = state.details
	const pageLoading = reviews.page !== page
	const hours: Array<[string, OpeningHours]> = [
		[t('public:workshop.weekdays'), workshop.openingHours.weekdays],
		[t('public:workshop.saturday'), workshop.openingHours.saturday],
		[t('public:workshop.sunday'), workshop.openingHours.sunday],
	]
	return (
		<article className="widget widget--details" aria-labelledby={`${id}-title`}>
			<header className="profile">
				<div className="card__logo card__logo--large">
					{workshop.logo ? <img src={workshop.logo} alt={t('public:workshop.logoAlt', { name: workshop.name })} width={80} height={80} /> : <span aria-hidden="true">{workshop.name.slice(0, 1)}</span>}
				</div>
				<div>
					<h2 id={`${id}-title`} className="widget__title">
						{workshop.name}
					</h2>
					{workshop.featured ? <p className="badge">{t('public:workshop.featured')}</p> : null}
					<p className="rating rating--large">
						<Stars rating={rating.average} />
						{rating.count ? (
							<span className="rating__value" aria-hidden="true">
								{formatRating(rating.average, language)}
							</span>
						) : null}
						<span className="muted">{reviewCountText(t, rating.count)}</span>
					</p>
					{workshop.priceRecord ? (
						<p className="muted">{t('public:workshop.priceRecord', { percent: workshop.priceRecord.atQuotedPercent, count: workshop.priceRecord.jobs })}</p>
					) : null}
				</div>
			</header>

			{workshop.marketingText ? <p className="profile__text">{workshop.marketingText}</p> : null}

			<dl className="facts">
				<div>
					<dt>{t('public:workshop.address')}</dt>
					<dd>{[workshop.address.street, [workshop.address.zipCode, workshop.address.city].filter(Boolean).join(' ')].filter(Boolean).join(', ')}</dd>
				</div>
				{workshop.phone ? (
					<div>
						<dt>{t('public:workshop.phone')}</dt>
						<dd>
							<a href={`tel:${workshop.phone.replace(/\s+/g, '')}`}>{workshop.phone}</a>
						</dd>
					</div>
				) : null}
				{workshop.website ? (
					<div>
						<dt>{t('public:workshop.website')}</dt>
						<dd>
							<a href={workshop.website} rel="noopener noreferrer">
								{workshop.website.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, '')}
							</a>
						</dd>
					</div>
				) : null}
				<div>
					<dt>{t('public:workshop.openingHours')}</dt>
					<dd>
						<ul className="hours">
							{hours.map(([day, time]) => (
								<li key={day}>
									<span>{day}</span> <span>{time ? t('public:workshop.hoursRange', { opens: time.opens, closes: time.closes }) : t('public:workshop.closed')}</span>
								</li>
							))}
						</ul>
					</dd>
				</div>
			</dl>

			{workshop.nextFreeTimes.length ? (
				<>
					{/* From the workshop's calendar (issue 33): each opens the portal's request form with the time filled in. */}
					<h3 className="section-title">{t('public:workshop.nextFreeTimes')}</h3>
					<ul className="free-times">
						{workshop.nextFreeTimes.map((time) => {
							const label = formatDateTime(time.startsAt, language)
							return (
								<li key={time.startsAt}>
									<a className="button" href={time.url} aria-label={t('booking:public.askAt', { time: label })}>
										<time dateTime={time.startsAt}>{label}</time>
									</a>
								</li>
							)
						})}
					</ul>
				</>
			) : null}

			{workshop.services.length ? (
				<>
					<h3 className="section-title">{t('public:workshop.services')}</h3>
					<ul className="tags">
						{workshop.services.map((service) => (
							<li key={service}>{service}</li>
						))}
					</ul>
				</>
			) : null}

			<div className="actions">
				<button type="button" className="button button--primary" aria-expanded={showReviews} aria-controls={`${id}-reviews`} onClick={() => setShowReviews((shown) => !shown)}>
					{showReviews ? t('widgets:hideReviews') : t('widgets:showReviews', { count: rating.count })}
				</button>
				<a className="button" href={workshop.url}>
					{t('widgets:fullProfile')}
				</a>
			</div>

			<section id={`${id}-reviews`} className="reviews" aria-labelledby={`${id}-reviews-title`} hidden={!showReviews} aria-busy={pageLoading || undefined}>
				<h3 id={`${id}-reviews-title`} className="section-title">
					{t('public:reviews.title')}
				</h3>
				{reviews.items.length ? (
					<ol className="review-list">
						{reviews.items.map((review) => (
							<Review key={review.id} review={review} workshop={workshop.name} />
						))}
					</ol>
				) : (
					<p className="muted">{t('public:reviews.none')}</p>
				)}
				{pageLoading ? <Loading /> : null}
				<Pager page={reviews.page} totalPages={reviews.totalPages} label={t('public:reviews.pagination')} onPage={setPage} />
			</section>
		</article>
	)
}

function Review({ review, workshop }: { review: PublicReview; workshop: string }) {
	const { t, language } = useWidget()
	return (
		<li className="review">
			<p className="review__head">
				<Stars rating={review.rating} />
				<strong className="review__title">{review.title || t('public:reviews.untitled')}</strong>
			</p>
			<p className="muted">
				{review.reviewer} · <time dateTime={review.createdAt}>{formatDate(review.createdAt, language)}</time>
			</p>
			{review.quotedCents !== null && review.paidCents !== null ? (
				<p className="review__job">
					<span className="badge badge--verified">{t('public:reviews.verified')}</span>{' '}
					{[...(review.services.length ? [review.services.join(', ')] : []), t('public:reviews.quotedPaid', { quoted: formatMoney(review.quotedCents, language), paid: formatMoney(review.paidCents, language) })].join(' · ')}
				</p>
			) : null}
			{review.body ? <p className="review__body">{review.body}</p> : null}
			{review.reply ? (
				<div className="reply">
					<p className="reply__title">{t('public:reviews.replyFrom', { workshop })}</p>
					<p>{review.reply}</p>
				</div>
			) : null}
		</li>
	)
}
