import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormActions, FormAlert, FormSecurity, TextareaField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Stars } from '~/components/stars'
import { listWorkshopReviews } from '~/domain/service-flow/offers.server'
import { ReplySchema } from '~/domain/service-flow/reviews'
import { replyToReview } from '~/domain/service-flow/review-moves.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireWorkshop } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatRating } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'workshop')
	const { summary, reviews } = await listWorkshopReviews(actor.workshopId, language)
	return { meta: { title: t('reviews.title') }, summary, reviews: reviews.map((review) => ({ ...review, slug: encodeId(review.id) })) }
}

export async function action({ request }: ActionFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const reviewSlug = String(formData.get('review') ?? '')
	const reviewId = decodeId(reviewSlug)
	if (!reviewId) throw new Response('Not found', { status: 404 })
	const submission = parseWithZod(formData, { schema: ReplySchema })
	if (submission.status !== 'success') return data({ review: reviewSlug, result: submission.reply() }, { status: 400 })
	try {
		await or404(replyToReview(actor, reviewId, submission.value.reply))
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission, data: { review: reviewSlug } })
	}
	return redirectWithToast(`/customer-reviews#review-${reviewSlug}`, { type: 'success', key: 'workshop:reviews.replied' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function CustomerReviewsPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { summary, reviews } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	return (
		<>
			<PageHeader title={t('reviews.title')} subtitle={t('reviews.subtitle')} />
			<section className="panel rating-overview" aria-label={t('reviews.average')}>
				<span className="rating-overview__value">{summary.reviewCount ? formatRating(summary.ratingAverage, language) : '–'}</span>
				<Stars rating={summary.ratingAverage} size="large" />
				<span className="rating-overview__count">{t('reviews.basedOn', { count: summary.reviewCount })}</span>
				{summary.unanswered ? <span className="badge badge--request-offer">{t('reviews.unanswered', { count: summary.unanswered })}</span> : null}
			</section>
			{reviews.length ? (
				<ul className="review-feed">
					{reviews.map((review) => (
						<li key={review.id} id={`review-${review.slug}`} className="panel">
							<article>
								<header className="review-feed__head">
									<Stars rating={review.rating} size="small" />
									<span className="item__meta">
										{review.customer} · {formatDate(review.createdAt, language)} · {review.services.join(', ')}
									</span>
								</header>
								{review.title ? <h2 className="review-feed__title">{review.title}</h2> : null}
								<p className="prose-text">{review.body}</p>
								{review.hiddenReason !== null ? <p className="notice notice--warning">{t('reviews.hiddenByAdmin', { note: review.hiddenReason })}</p> : null}
								{review.reply ? (
									<div className="review__reply">
										<p className="review__reply-title">{t('reviews.yourReply', { date: review.repliedAt ? formatDate(review.repliedAt, language) : '' })}</p>
										<p className="prose-text">{review.reply}</p>
									</div>
								) : review.hiddenReason === null ? (
									<ReplyForm reviewSlug={review.slug} lastResult={actionData?.review === review.slug ? actionData.result : undefined} />
								) : null}
							</article>
						</li>
					))}
				</ul>
			) : (
				<p className="empty">{t('reviews.none')}</p>
			)}
		</>
	)
}

function ReplyForm({ reviewSlug, lastResult }: { reviewSlug: string; lastResult?: SubmissionResult<string[]> }) {
	const { t } = useTranslation('workshop')
	const [form, fields] = useForm({
		id: `reply-${reviewSlug}`,
		lastResult,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ReplySchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" className="form reply-form" {...getFormProps(form)}>
			<FormSecurity />
			<input type="hidden" name="review" value={reviewSlug} />
			<FormAlert id={form.errorId} errors={form.errors} />
			<TextareaField label={t('reviews.reply')} required textareaProps={{ ...getTextareaProps(fields.reply), rows: 3 }} errors={fields.reply.errors} />
			<FormActions submit={t('reviews.send')} />
		</Form>
	)
}
