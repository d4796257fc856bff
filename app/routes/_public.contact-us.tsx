import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Field, FormAlert, FormSecurity, StatusButton, TextareaField, useIsPending } from '~/components/forms'
import { ContactSchema } from '~/domain/contact'
import { saveContactMessage } from '~/domain/contact.server'
import { addressFor } from '~/domain/site'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { isSpam } from '~/utils/honeypot.server'
import { pageMeta } from '~/utils/meta'
import { hitRateLimit, rateLimitRules } from '~/utils/rate-limit.server'
import { pageSeo } from '~/utils/seo.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const t = getFixedT(language, 'public')
	return { meta: pageSeo(request, language, { title: t('contact.metaTitle'), description: t('contact.metaDescription') }) }
}

export async function action({ request, context }: ActionFunctionArgs) {
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const thanks = () => redirectWithToast('/contact-us', { type: 'success', key: 'public:contact.thanks' }, { request })
	// A bot gets the same answer as a person, and nothing is stored or sent.
	if (isSpam(formData)) return thanks()

	const submission = parseWithZod(formData, { schema: ContactSchema })
	// The page again, with the errors next to the fields (200: the page itself is fine, and browsers log a 4xx document as an error).
	if (submission.status !== 'success') return data({ result: submission.reply() })

	const limit = await hitRateLimit(`contact:${clientIp(context)}`, rateLimitRules.contactPerIp)
	if (!limit.allowed) {
		const t = getFixedT(await getLanguage(request))
		const minutes = Math.max(1, Math.ceil(limit.retryAfterSeconds / 60))
		return data(
			{ result: submission.reply({ formErrors: [t('validation.tooManyAttempts', { minutes })] }) },
			{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
		)
	}

	await saveContactMessage({ ...submission.value, language: await getLanguage(request) })
	return thanks()
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function ContactPage() {
	useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const root = useRouteLoaderData<RootLoaderData>('root')
	const { t } = useTranslation('public')
	const isPending = useIsPending()
	// After a message was sent the page comes back with the thank-you toast: a new form id empties the form.
	const [form, fields] = useForm({
		id: `contact-${root?.toast?.id ?? 'form'}`,
		lastResult: actionData?.result,
		constraint: getZodConstraint(ContactSchema),
		// Errors appear when the form is sent (not on blur, which would move the button under the pointer), then follow the typing.
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactSchema }),
	})
	const site = root?.site
	const address = site && root ? addressFor(site, root.language) : ''
	const phone = site ? [site.countryCode, site.sitePhoneNumber].filter(Boolean).join(' ') : ''

	return (
		<div className="container page-section">
			<header className="page-heading">
				<h1>{t('contact.title')}</h1>
				<p className="page-heading__lead">{t('contact.intro')}</p>
			</header>
			<div className="contact-layout">
				<section className="card" aria-labelledby="contact-form-title">
					<h2 id="contact-form-title" className="card__title">
						{t('contact.formTitle')}
					</h2>
					<Form method="post" className="form" key={form.id} {...getFormProps(form)}>
						<FormSecurity honeypot />
						<FormAlert id={form.errorId} errors={form.errors} />
						<Field
							label={t('contact.name')}
							required
							errors={fields.name.errors}
							inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'name' }}
						/>
						<Field
							label={t('contact.emailAddress')}
							required
							errors={fields.email.errors}
							inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
						/>
						<TextareaField
							label={t('contact.message')}
							required
							errors={fields.message.errors}
							textareaProps={{ ...getTextareaProps(fields.message), rows: 6 }}
						/>
						<div className="form-actions">
							<StatusButton type="submit" status={isPending ? 'pending' : 'idle'}>
								{t('contact.send')}
							</StatusButton>
							<p className="form-note">{t('contact.privacy')}</p>
						</div>
					</Form>
				</section>
				{site ? (
					<aside className="card contact-details" aria-labelledby="contact-details-title">
						<h2 id="contact-details-title" className="card__title">
							{t('contact.detailsTitle')}
						</h2>
						<address className="contact-details__address">
							<p className="contact-details__name">{site.appname}</p>
							{address ? <p>{address}</p> : null}
							{site.siteEmail ? (
								<p>
									<span className="contact-details__label">{t('contact.emailLabel')}</span>{' '}
									<a href={`mailto:${site.siteEmail}`}>{site.siteEmail}</a>
								</p>
							) : null}
							{phone ? (
								<p>
									<span className="contact-details__label">{t('contact.phoneLabel')}</span>{' '}
									<a href={`tel:${phone.replace(/\s+/g, '')}`}>{phone}</a>
								</p>
							) : null}
						</address>
					</aside>
				) : null}
			</div>
		</div>
	)
}
