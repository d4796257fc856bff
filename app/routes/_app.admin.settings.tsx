import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { Field, FileField, FormActions, FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { SiteSettingsSchema } from '~/domain/admin/admin'
import { getSiteSettingsForEdit, saveSiteSettings } from '~/domain/admin/content.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readFormUploads, withFormFiles } from '~/uploads/multipart.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	return { meta: { title: t('settings.title') }, settings: await getSiteSettingsForEdit() }
}

export async function action({ request }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	return withFormFiles(request, async (formData) => {
		await validateCsrf(request, formData)
		const submission = parseWithZod(formData, { schema: SiteSettingsSchema })
		const uploads = await readFormUploads(formData, admin.id, {
			logo: { purpose: 'site_logo', max: 1 },
			favicon: { purpose: 'site_favicon', max: 1 },
		})
		if (submission.status !== 'success' || !uploads.ok) {
			return data({ result: submission.reply(), fileErrors: uploads.errors, held: await uploads.hold() }, { status: uploads.status })
		}
		await saveSiteSettings(admin.id, submission.value, {
			logo: uploads.files.logo[0],
			favicon: uploads.files.favicon[0],
			removeLogo: formData.get('removeLogo') === 'yes',
			removeFavicon: formData.get('removeFavicon') === 'yes',
		})
		return redirectWithToast('/admin/settings', { type: 'success', key: 'admin:settings.saved' }, { request })
	})
}

export const meta = routeMeta<typeof loader>()

const groups = [
	{ key: 'site', fields: ['appname', 'siteEmail', 'countryCode', 'sitePhoneNumber'] },
	{ key: 'address', fields: ['siteAddress', 'siteAddressEstonian', 'siteAddressRussian'] },
	{ key: 'social', fields: ['facebookLink', 'twitterLink', 'instagramLink', 'linkedinLink'] },
	{ key: 'seller', fields: ['companyName', 'companyRegistryCode', 'vatNumber', 'vatRate'] },
	{ key: 'reminders', fields: ['tyreAutumnDay', 'tyreSpringDay'] },
	{ key: 'bookings', fields: ['bookingFreeChangeHours', 'bookingFirstReminderHours', 'bookingSecondReminderHours', 'bookingTypicalMinutes'] },
] as const

const required = new Set(['appname', 'siteEmail', 'vatRate'])
const inputType = (name: string) =>
	name === 'siteEmail' ? 'email' : name.endsWith('Link') ? 'url' : name === 'sitePhoneNumber' ? 'tel' : name.startsWith('booking') ? 'number' : 'text'

export default function AdminSettingsPage() {
	const { t } = useTranslation('admin')
	const { settings } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const { logo, favicon, bookingFreeChangeHours, bookingFirstReminderHours, bookingSecondReminderHours, bookingTypicalMinutes, ...values } = settings
	const [form, fields] = useForm({
		id: 'site-settings',
		lastResult: actionData?.result,
		// The form's fields are text: the booking numbers go in as typed.
		defaultValue: {
			...values,
			bookingFreeChangeHours: String(bookingFreeChangeHours),
			bookingFirstReminderHours: String(bookingFirstReminderHours),
			bookingSecondReminderHours: String(bookingSecondReminderHours),
			bookingTypicalMinutes: String(bookingTypicalMinutes),
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: SiteSettingsSchema }),
		shouldRevalidate: 'onInput',
	})
	const fileErrors = actionData?.fileErrors ?? {}
	return (
		<>
			<PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
			<Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
				<FormSecurity />
				<div className="admin-grid">
					{groups.map((group) => (
						<fieldset key={group.key} className="card">
							<legend>{t(`settings.groups.${group.key}`)}</legend>
							{group.fields.map((name) => (
								<Field
									key={name}
									label={t(`settings.fields.${name}`)}
									required={required.has(name)}
									inputProps={getInputProps(fields[name], { type: inputType(name) })}
									errors={fields[name].errors}
								/>
							))}
						</fieldset>
					))}
					<fieldset className="card">
						<legend>{t('settings.groups.images')}</legend>
						{(['logo', 'favicon'] as const).map((name) => {
							const current = name === 'logo' ? logo : favicon
							return (
								<div key={name}>
									{current ? <img src={current} alt={t('settings.current')} className="admin-preview" /> : null}
									<FileField
										id={`site-${name}`}
										name={name}
										label={t(`settings.fields.${name}`)}
										help={t('settings.imageHelp')}
										accept="images"
										errors={fileErrors[name]}
										held={actionData?.held?.[name]}
										current={current ? { removeName: name === 'logo' ? 'removeLogo' : 'removeFavicon', removeLabel: t('settings.remove') } : null}
									/>
								</div>
							)
						})}
					</fieldset>
				</div>
				<FormActions submit={t('settings.submit')} />
			</Form>
		</>
	)
}
