import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { Field, FormActions, FormAlert, FormSecurity, TextareaField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { RatingInput } from '~/components/rating-input'
import { Stars } from '~/components/stars'
import { StepIndicator } from '~/components/step-indicator'
import { getCustomerRequest } from '~/domain/service-flow/requests.server'
import { ReviewSchema } from '~/domain/service-flow/reviews'
import { addReview } from '~/domain/service-flow/review-moves.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { canRequest } from '~/domain/service-flow/status'
import { type AdsHandle } from '~/utils/ad-places'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const detail = await or404(getCustomerRequest(user.id, idParam(params.slug), language))
	const slug = encodeId(detail.id)
	if (!canRequest('review', detail.status)) {
		throw await redirectWithToast(`/request-details/${slug}`, { type: 'warning', key: 'customer:review.notCompleted' }, { request })
	}
	const t = getFixedT(language, 'customer')
	return {
		meta: { title: t('review.title') },
		slug,
		workshopName: detail.selectedOffer?.workshopName ?? '',
		services: detail.services,
		review: detail.review,
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const requestId = idParam(params.slug)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: ReviewSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await or404(addReview(user.id, requestId, submission.value))
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
	return redirectWithToast(`/service-details/${encodeId(requestId)}`, { type: 'success', key: 'customer:review.saved' }, { request })
}

export const meta = routeMeta<typeof loader>()

// The review form (step 4) shows no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function LeaveFeedbackPage() {
	const { t } = useTranslation('customer')
	const { workshopName, services, review, slug } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'leave-feedback',
		lastResult: actionData?.result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ReviewSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader title={t('review.title')} subtitle={t('review.subtitle', { workshop: workshopName, services: services.join(', ') })} />
			<StepIndicator current={4} />
			{review ? (
				<section className="panel card--narrow">
					<h2>{t('review.given')}</h2>
					<Stars rating={review.rating} />
					{review.title ? <p className="item__title">{review.title}</p> : null}
					<p className="prose-text">{review.body}</p>
					<ButtonLink to={`/service-details/${slug}`} kind="ghost">{t('review.seeService')}</ButtonLink>
				</section>
			) : (
				<Form method="post" className="form card card--narrow" {...getFormProps(form)}>
					<FormSecurity />
					<FormAlert id={form.errorId} errors={form.errors} />
					<RatingInput name={fields.rating.name} legend={t('review.rating')} defaultValue={fields.rating.initialValue as string | undefined} errors={fields.rating.errors} />
					<Field label={t('review.reviewTitle')} inputProps={getInputProps(fields.title, { type: 'text' })} errors={fields.title.errors} />
					<TextareaField label={t('review.body')} required help={t('review.bodyHelp')} textareaProps={getTextareaProps(fields.body)} errors={fields.body.errors} />
					<FormActions submit={t('review.submit')} large />
				</Form>
			)}
		</>
	)
}
