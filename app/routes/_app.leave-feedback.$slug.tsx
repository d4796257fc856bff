import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Field, FormAlert, FormSecurity, StatusButton, TextareaField, useIsPending } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { RatingInput } from '~/components/rating-input'
import { Stars } from '~/components/stars'
import { StepIndicator } from '~/components/step-indicator'
import { DomainError } from '~/domain/errors'
import { getCustomerRequest } from '~/domain/requests.server'
import { ReviewSchema } from '~/domain/reviews'
import { addReview } from '~/domain/service-flow.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { message } from '~/utils/messages'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const detail = await or404(getCustomerRequest(user.id, idParam(params.slug), language))
	const slug = encodeId(detail.id)
	if (detail.status !== 'completed') {
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
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: ReviewSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await or404(addReview(user.id, requestId, submission.value))
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return data({ result: submission.reply({ formErrors: [message(error.key, error.params)] }) }, { status: error.status })
	}
	return redirectWithToast(`/service-details/${encodeId(requestId)}`, { type: 'success', key: 'customer:review.saved' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function LeaveFeedbackPage() {
	const { t } = useTranslation('customer')
	const { workshopName, services, review, slug } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const isPending = useIsPending()
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
					<Link to={`/service-details/${slug}`} className="button button--ghost">
						{t('review.seeService')}
					</Link>
				</section>
			) : (
				<Form method="post" className="form card card--narrow" {...getFormProps(form)}>
					<FormSecurity />
					<FormAlert id={form.errorId} errors={form.errors} />
					<RatingInput name={fields.rating.name} legend={t('review.rating')} defaultValue={fields.rating.initialValue as string | undefined} errors={fields.rating.errors} />
					<Field label={t('review.reviewTitle')} inputProps={getInputProps(fields.title, { type: 'text' })} errors={fields.title.errors} />
					<TextareaField label={t('review.body')} required help={t('review.bodyHelp')} textareaProps={getTextareaProps(fields.body)} errors={fields.body.errors} />
					<div className="form-actions">
						<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className="button--primary button--large">
							{t('review.submit')}
						</StatusButton>
					</div>
				</Form>
			)}
		</>
	)
}
