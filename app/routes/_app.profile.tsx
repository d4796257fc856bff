import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { VerifiedNames } from '~/components/eid'
import { Field, FormActions, FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { ProfileSchema } from '~/domain/accounts/accounts'
import { updateProfile } from '~/domain/accounts/accounts.server'
import { VerifiedProfileSchema } from '~/domain/accounts/eid'
import { linkedEid } from '~/domain/accounts/eid.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { redirectWithToast } from '~/utils/toast.server'
import { type AdsHandle } from '~/utils/ad-places'

const signedIn = ['customer', 'workshop', 'admin'] as const

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: signedIn })
	const t = getFixedT(await getLanguage(request), 'account')
	return {
		meta: { title: t('profile.metaTitle') },
		profile: { firstName: user.firstName, lastName: user.lastName, mobile: user.mobile, email: user.email, role: user.role },
		// With an eID linked the names are the verified ones, not for editing (decision 0150).
		namesVerified: Boolean(await linkedEid(user.id)),
	}
}

export async function action({ request }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: signedIn })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: (await linkedEid(user.id)) ? VerifiedProfileSchema : ProfileSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	await updateProfile(user.id, submission.value)
	return redirectWithToast('/profile', { type: 'success', key: 'account:profile.saved' }, { request })
}

export const meta = routeMeta<typeof loader>()

// Account settings show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function ProfilePage() {
	const { t } = useTranslation('account')
	const { profile, namesVerified } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'profile',
		lastResult: actionData?.result,
		defaultValue: profile,
		// Verified names are not in the form: only the number is checked then.
		onValidate: ({ formData }) => parseWithZod(formData, { schema: (namesVerified ? VerifiedProfileSchema : ProfileSchema) as typeof ProfileSchema }),
		// Errors clear while the user types, so nothing shifts under the pointer when they click submit.
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader title={t('profile.title')} subtitle={t('profile.subtitle')} />
			<div className="card card--narrow">
				<Form method="post" className="form" {...getFormProps(form)}>
					<FormSecurity />
					<div className="form-grid form-grid--two">
						{namesVerified ? (
							<div className="field--wide">
								<VerifiedNames firstName={profile.firstName} lastName={profile.lastName} note={t('eid.namesNote')} />
							</div>
						) : (
							<>
								<Field
									label={t('profile.firstName')}
									required
									inputProps={{ ...getInputProps(fields.firstName, { type: 'text' }), autoComplete: 'given-name' }}
									errors={fields.firstName.errors}
								/>
								<Field
									label={t('profile.lastName')}
									required
									inputProps={{ ...getInputProps(fields.lastName, { type: 'text' }), autoComplete: 'family-name' }}
									errors={fields.lastName.errors}
								/>
							</>
						)}
						<Field
							label={t('profile.mobile')}
							required
							inputProps={{ ...getInputProps(fields.mobile, { type: 'tel' }), autoComplete: 'tel' }}
							errors={fields.mobile.errors}
						/>
						<Field
							label={t('profile.email')}
							help={t('profile.emailNote')}
							inputProps={{ id: 'profile-email', type: 'email', value: profile.email, readOnly: true, disabled: true }}
						/>
					</div>
					{profile.role === 'workshop' ? (
						<p className="notice">
							{t('profile.workshopNote')} <Link to="/workshop-profile">{t('profile.workshopLink')}</Link>
						</p>
					) : null}
					<FormActions submit={t('profile.submit')} />
				</Form>
			</div>
		</>
	)
}
