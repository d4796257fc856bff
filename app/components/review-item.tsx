import { Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type PriceRecord, type PublicReview } from '~/domain/directory/workshops'
import { useLanguage } from '~/i18n/use-language'
import { formatMoney } from '~/utils/format'
import { VerifiedPerson } from './verified-person'
import { Stars } from './stars'

export type ReviewView = PublicReview & { createdLabel: string; repliedLabel: string | null }

/** A review with the workshop's reply (workshop details, home page). */
export function ReviewItem({
	review,
	workshop,
	headingLevel = 3,
}: {
	review: ReviewView
	/** The workshop it is about: shown with a link on the home page; its name titles the reply. */
	workshop: { id?: string; name: string; linked?: boolean }
	headingLevel?: 2 | 3
}) {
	const { t } = useTranslation('public')
	const Heading = headingLevel === 2 ? 'h2' : 'h3'
	return (
		<article className="review">
			<header className="review__header">
				<Stars rating={review.rating} size="small" />
				<Heading className="review__title">{review.title || t('reviews.untitled')}</Heading>
			</header>
			{workshop.linked && workshop.id ? (
				<p className="review__workshop">
					<Link to={`/workshop-details/${workshop.id}`}>{workshop.name}</Link>
				</p>
			) : null}
			<ReviewJob review={review} />
			<p className="review__body">{review.body}</p>
			<p className="review__meta">
				{review.reviewer}
				{review.reviewerVerified ? ' ' : null}
				<VerifiedPerson verified={review.reviewerVerified} />
				{' · '}
				<time dateTime={review.createdAt}>{review.createdLabel}</time>
				{' · '}
				{/* Anyone signed in may report it (issue 19); a visitor is asked to sign in first. */}
				<Link to={`/report-review/${review.id}`} rel="nofollow" className="review__report">
					{t('report.link')}
				</Link>
			</p>
			{review.reply ? (
				<div className="review__reply">
					<p className="review__reply-title">{t('reviews.replyFrom', { workshop: workshop.name })}</p>
					<p className="review__reply-text">{review.reply}</p>
				</div>
			) : null}
		</article>
	)
}

/** "Verified job · Brakes · Quoted €205.00 · Paid €245.00" (issue 19): the job the review is about. */
function ReviewJob({ review }: { review: PublicReview }) {
	const { t } = useTranslation('public')
	const language = useLanguage()
	// Both come from the completed job the review is about: a review without one (older data) shows neither.
	const { quotedCents, paidCents } = review
	if (quotedCents === null || paidCents === null) return null
	return (
		<p className="review__job">
			<span className="badge badge--verified">{t('reviews.verified')}</span>
			{review.services.length ? <span>{review.services.join(', ')}</span> : null}
			<span className={paidCents > quotedCents ? 'review__price review__price--above' : 'review__price'}>
				{t('reviews.quotedPaid', { quoted: formatMoney(quotedCents, language), paid: formatMoney(paidCents, language) })}
			</span>
		</p>
	)
}

/** "92 % of jobs at the quoted price" (issue 19): nothing below five completed jobs in twelve months. */
export function PriceRecordLine({ record }: { record: PriceRecord | null }) {
	const { t } = useTranslation('public')
	if (!record) return null
	return <p className="price-record">{t('workshop.priceRecord', { percent: record.atQuotedPercent, count: record.jobs })}</p>
}
