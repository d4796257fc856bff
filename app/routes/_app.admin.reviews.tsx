import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { AdminDecisionForm } from '~/components/admin-decision-form'
import { PageHeader } from '~/components/page-header'
import { Stars } from '~/components/stars'
import { type ReportedReview } from '~/domain/service-flow/review-moderation'
import { ModerateReviewSchema } from '~/domain/service-flow/review-moderation-schema'
import { listReportedReviews, moderateReview } from '~/domain/service-flow/review-moderation.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/** Reported reviews (issue 19): those with open reports, oldest first, each hidden or kept here; the latest settled below. */
export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'admin')
	return { meta: { title: t('reviews.title') }, ...(await listReportedReviews(language)) }
}

export async function action({ request }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: ModerateReviewSchema })
	const review = String(formData.get('review') ?? '')
	if (submission.status !== 'success') return data({ review, result: submission.reply() }, { status: 400 })
	try {
		await or404(moderateReview(admin.id, submission.value.review, submission.value))
	} catch (error) {
		// Settled a moment ago by another administrator: the review has left the open list, so the toast says it.
		return handleDomainError(error, { as: 'toast', redirectTo: '/admin/reviews', request })
	}
	return redirectWithToast(
		'/admin/reviews',
		{ type: 'success', key: submission.value.decision === 'hide' ? 'admin:reviews.hidden' : 'admin:reviews.kept' },
		{ request },
	)
}

export const meta = routeMeta<typeof loader>()

export default function AdminReviewsPage() {
	const { t } = useTranslation('admin')
	const { open, settled } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('reviews.title')} subtitle={t('reviews.count', { count: open.length })} />
			<p>{t('reviews.text')}</p>
			{open.length ? (
				<ul className="admin-list">
					{open.map((review) => (
						<li key={review.id} className="admin-list-item" aria-labelledby={`review-${review.id}`}>
							<ReportedReviewFacts review={review} />
							<ModerateForm review={review} />
						</li>
					))}
				</ul>
			) : (
				<p className="empty">{t('reviews.none')}</p>
			)}
			{settled.length ? (
				<>
					<h2>{t('reviews.settledList')}</h2>
					<ul className="admin-list">
						{settled.map((review) => (
							<li key={review.id} className="admin-list-item" aria-labelledby={`review-${review.id}`}>
								<ReportedReviewFacts review={review} />
							</li>
						))}
					</ul>
				</>
			) : null}
		</>
	)
}

/** The review as written, whether it is hidden, and each report of it with the decision taken. */
function ReportedReviewFacts({ review }: { review: ReportedReview }) {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	return (
		<>
			<h3 id={`review-${review.id}`} className="admin-audit__action">
				{review.title || t('public:reviews.untitled')} · <Link to={`/workshop-details/${review.workshopSlug}`}>{review.workshopName}</Link>
			</h3>
			<p className="admin-muted">
				<Stars rating={review.rating} size="small" /> {t('reviews.author', { name: review.author, date: formatDate(review.createdAt, language) })}
			</p>
			<p className="admin-message">{review.body}</p>
			{review.hiddenAt ? <p className="notice notice--warning">{t('reviews.hiddenNote', { date: formatDate(review.hiddenAt, language), note: review.hiddenReason ?? '' })}</p> : null}
			<ul className="admin-reports">
				{review.reports.map((report, index) => (
					<li key={index}>
						<strong>{t(`public:report.reasons.${report.reason}`)}</strong>
						{report.text ? ` — ${report.text}` : null}
						<span className="admin-muted"> · {t('reviews.reportedBy', { name: report.reporter, date: formatDate(report.createdAt, language) })}</span>
						{report.decision ? <span className="admin-muted"> · {t(`reviews.decision.${report.decision}`, { note: report.note ?? '' })}</span> : null}
					</li>
				))}
			</ul>
		</>
	)
}

/** Hide or keep one reported review: why, then the decision. */
function ModerateForm({ review }: { review: ReportedReview }) {
	const { t } = useTranslation('admin')
	const actionData = useActionData<typeof action>()
	return (
		<AdminDecisionForm
			id={review.id}
			idName="review"
			headingId={`review-${review.id}`}
			schema={ModerateReviewSchema}
			lastResult={actionData?.review === review.id ? actionData.result : undefined}
			note={{ label: t('reviews.note'), help: t('reviews.noteHelp') }}
			decisions={[
				{ value: 'hide', label: t('reviews.hide'), className: 'button--primary' },
				{ value: 'keep', label: t('reviews.keep'), className: 'button--ghost' },
			]}
		/>
	)
}
