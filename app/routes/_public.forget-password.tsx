import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { AuthPanel } from '~/components/auth-panel'
import { Field, FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { ForgotPasswordSchema } from '~/domain/accounts/accounts'
import { accountErrorHeaders, accountErrorMessage, requestPasswordReset } from '~/domain/accounts/accounts.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireAnonymous } from '~/utils/auth.server'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { pageSeo } from '~/utils/seo.server'
import { readForm } from '~/uploads/multipart.server'
import { redirectWithToast } from '~/utils/toast.server'
import { type AdsHandle } from '~/utils/ad-places'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireAnonymous(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'auth')
	return { meta: pageSeo(request, language, { title: t('forgot.metaTitle'), description: t('forgot.metaDescription') }) }
}

export async function action({ request, context }: ActionFunctionArgs) {
	await requireAnonymous(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: ForgotPasswordSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const limited = await requestPasswordReset({
		email: submission.value.email,
		ip: clientIp(context),
		language: await getLanguage(request),
	})
	if (limited) return data({ result: submission.reply({ formErrors: [accountErrorMessage(limited)] }) }, { status: limited.status, headers: accountErrorHeaders(limited) })
	// The same answer whether or not the address has an account.
	return redirectWithToast('/login', { type: 'success', key: 'auth:forgot.sent' }, { request })
}

export const meta = routeMeta<typeof loader>()

// Sign-in forms show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function ForgotPasswordPage() {
	const { t } = useTranslation('auth')
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'forgot-password',
		lastResult: actionData?.result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
		// Errors clear while the user types, so nothing shifts under the pointer when they click submit.
		shouldRevalidate: 'onInput',
	})
	return (
		<AuthPanel title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
			<Form method="post" className="form" {...getFormProps(form)}>
				<FormSecurity />
				<FormAlert id={form.errorId} errors={form.errors} />
				<Field
					label={t('forgot.email')}
					required
					inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
					errors={fields.email.errors}
				/>
				<FormActions submit={t('forgot.submit')} large className="form-actions--spread">
					<Link to="/login">{t('forgot.back')}</Link>
				</FormActions>
			</Form>
		</AuthPanel>
	)
}
