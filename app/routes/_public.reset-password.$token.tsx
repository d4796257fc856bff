import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { AuthPanel } from '~/components/auth-panel'
import { ButtonLink } from '~/components/button-link'
import { FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { NewPasswordField } from '~/components/new-password-field'
import { ResetPasswordSchema } from '~/domain/accounts/accounts'
import { accountErrorHeaders, accountErrorMessage, isResetTokenValid, resetPassword } from '~/domain/accounts/accounts.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { redirectWithToast } from '~/utils/toast.server'
import { type AdsHandle } from '~/utils/ad-places'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const t = getFixedT(await getLanguage(request), 'auth')
	const valid = await isResetTokenValid(params.token ?? '')
	return data(
		{ valid, meta: { title: t(valid ? 'reset.metaTitle' : 'reset.invalid') } },
		// The page holds a secret in its address: keep it out of caches and referrers.
		{ headers: { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } },
	)
}

export async function action({ request, params, context }: ActionFunctionArgs) {
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: ResetPasswordSchema })
	const hidden = { hideFields: ['password', 'confirmPassword'] }
	if (submission.status !== 'success') return data({ result: submission.reply(hidden) }, { status: 400 })
	const outcome = await resetPassword({ token: params.token ?? '', password: submission.value.password, ip: clientIp(context) })
	if (outcome === 'invalid') return data({ result: submission.reply({ ...hidden, formErrors: ['auth:reset.invalid'] }) }, { status: 400 })
	if (outcome !== 'ok') return data({ result: submission.reply({ ...hidden, formErrors: [accountErrorMessage(outcome)] }) }, { status: outcome.status, headers: accountErrorHeaders(outcome) })
	return redirectWithToast('/login', { type: 'success', key: 'auth:reset.success' }, { request })
}

export const meta = routeMeta<typeof loader>([{ name: 'robots', content: 'noindex' }])

// Sign-in forms show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function ResetPasswordPage() {
	const { t } = useTranslation('auth')
	const { valid } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'reset-password',
		lastResult: actionData?.result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
		// Errors clear while the user types, so nothing shifts under the pointer when they click submit.
		shouldRevalidate: 'onInput',
	})
	const validate = (name: string) => form.validate({ name })
	if (!valid) {
		return (
			<AuthPanel title={t('reset.invalid')} subtitle={t('reset.invalidText')}>
				<ButtonLink to="/forget-password">{t('reset.requestNew')}</ButtonLink>
			</AuthPanel>
		)
	}
	return (
		<AuthPanel title={t('reset.title')} subtitle={t('reset.subtitle')}>
			<Form method="post" className="form" {...getFormProps(form)}>
				<FormSecurity />
				<FormAlert id={form.errorId} errors={form.errors} />
				<NewPasswordField field={fields.password} validate={validate} label={t('reset.password')} />
				<NewPasswordField field={fields.confirmPassword} validate={validate} label={t('reset.confirmPassword')} />
				<FormActions submit={t('reset.submit')} large />
			</Form>
		</AuthPanel>
	)
}
