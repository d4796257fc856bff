import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData, useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { Field, FormActions, FormAlert, FormSecurity, TextareaField } from '~/components/forms'
import { PublicPage } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { ContactSchema } from '~/domain/messaging/contact'
import { saveContactMessage } from '~/domain/messaging/contact.server'
import { addressFor } from '~/domain/site/site'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root-data'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { honeypotInputProps, isSpam } from '~/utils/honeypot.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { pageSeo } from '~/utils/seo.server'
import { handleDomainError } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const t = getFixedT(language, 'public')
	return { honeypot: honeypotInputProps(), meta: pageSeo(request, language, { title: t('contact.metaTitle'), description: t('contact.metaDescription') }) }
}

export async function action({ request, context }: ActionFunctionArgs) {
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const thanks = () => redirectWithToast('/contact-us', { type: 'success', key: 'public:contact.thanks' }, { request })
	// A bot gets the same answer as a person, and nothing is stored or sent.
	if (isSpam(formData)) return thanks()

	const submission = parseWithZod(formData, { schema: ContactSchema })
	// The page again, with the errors next to the fields (200: the page itself is fine, and browsers log a 4xx document as an error).
	if (submission.status !== 'success') return data({ result: submission.reply() })

	try {
		await saveContactMessage({ ...submission.value, language: await getLanguage(request) }, { ip: clientIp(context) })
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
	return thanks()
}

export const meta = routeMeta<typeof loader>()

export default function ContactPage() {
	const { honeypot } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const root = useRouteLoaderData<RootLoaderData>('root')
	const { t } = useTranslation('public')
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
		<PublicPage title={t('contact.title')} lead={t('contact.intro')}>
			<div className="contact-layout">
				<Panel id="contact-form-title" title={t('contact.formTitle')} className="card" titleClassName="card__title">
					<Form method="post" className="form" key={form.id} {...getFormProps(form)}>
						<FormSecurity honeypot={honeypot} />
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
						<FormActions submit={t('contact.send')}>
							<p className="form-note">{t('contact.privacy')}</p>
						</FormActions>
					</Form>
				</Panel>
				{site ? (
					<Panel as="aside" id="contact-details-title" title={t('contact.detailsTitle')} className="card contact-details" titleClassName="card__title">
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
					</Panel>
				) : null}
			</div>
		</PublicPage>
	)
}
