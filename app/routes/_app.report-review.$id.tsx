import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import * as z from 'zod/mini'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormActions, FormAlert, FormSecurity, SelectField, TextareaField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { Stars } from '~/components/stars'
import { MAX_REPORT_TEXT, reportReasons } from '~/domain/service-flow/review-moderation'
import { ReportReviewSchema } from '~/domain/service-flow/review-moderation-schema'
import { getReportableReview, reportReview } from '~/domain/service-flow/review-moderation.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { encodeId } from '~/utils/public-id'
import { redirectWithToast } from '~/utils/toast.server'

/** Any signed-in user reports a review shown on the site (issue 19): why, from a list, and in their own words. */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request)
	const language = await getLanguage(request)
	const review = await or404(getReportableReview(idParam(params.id), user.id, language))
	// Their own review, or one they reported already: said before any form is filled in.
	if (review.refusal) throw await redirectWithToast(`/workshop-details/${review.workshopSlug}`, { type: 'warning', key: review.refusal }, { request })
	const t = getFixedT(language, 'public')
	return { meta: { title: t('report.title') }, review }
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request)
	const reviewId = idParam(params.id)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	// Without Conform: the page stays light; its two fields' errors come from here, the input kept.
	const input = { reason: String(formData.get('reason') ?? ''), text: String(formData.get('text') ?? '') }
	const parsed = ReportReviewSchema.safeParse(input)
	if (!parsed.success) {
		const errors = z.flattenError(parsed.error).fieldErrors
		return data({ input, errors: { reason: errors.reason, text: errors.text } as Record<string, string[] | undefined>, formError: null }, { status: 400 })
	}
	try {
		const { workshopId } = await or404(reportReview(user.id, reviewId, parsed.data))
		return redirectWithToast(`/workshop-details/${encodeId(workshopId)}`, { type: 'success', key: 'public:report.sent' }, { request })
	} catch (error) {
		return handleDomainError(error, { as: 'data', data: (text) => ({ input, errors: {} as Record<string, string[] | undefined>, formError: text }) })
	}
}

export const meta = routeMeta<typeof loader>()

export default function ReportReviewPage() {
	const { t } = useTranslation('public')
	const { review } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	return (
		<>
			<PageHeader title={t('report.title')} subtitle={review.workshopName} />
			<div className="stack">
				<Panel id="report-review" title={review.title || t('reviews.untitled')}>
					<Stars rating={review.rating} size="small" />
					<p className="prose-text">{review.body}</p>
					<p className="item__meta">{review.reviewer}</p>
				</Panel>
				<Panel id="report-form" title={t('report.why')}>
					<p>{t('report.text')}</p>
					<Form method="post" className="form" noValidate>
						<FormSecurity />
						<FormAlert errors={actionData?.formError ? [actionData.formError] : undefined} />
						<SelectField
							label={t('report.reason')}
							required
							placeholder={t('report.choose')}
							options={reportReasons.map((reason) => ({ value: reason, label: t(`report.reasons.${reason}`) }))}
							selectProps={{ name: 'reason', defaultValue: actionData?.input.reason ?? '' }}
							errors={actionData?.errors.reason}
						/>
						<TextareaField
							label={t('report.details')}
							help={t('report.detailsHelp')}
							textareaProps={{ name: 'text', defaultValue: actionData?.input.text, rows: 4, maxLength: MAX_REPORT_TEXT }}
							errors={actionData?.errors.text}
						/>
						<FormActions submit={t('report.submit')}>
							<Link to={`/workshop-details/${review.workshopSlug}`}>{t('report.cancel')}</Link>
						</FormActions>
					</Form>
				</Panel>
			</div>
		</>
	)
}
