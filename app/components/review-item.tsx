import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type PublicReview } from '~/domain/directory/workshops'
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
			<p className="review__body">{review.body}</p>
			<p className="review__meta">
				{review.reviewer}
				{' · '}
				<time dateTime={review.createdAt}>{review.createdLabel}</time>
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
