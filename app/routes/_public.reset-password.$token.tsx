import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { AuthPanel } from '~/components/auth-panel'
import { Field, FormAlert, FormSecurity, StatusButton, useIsPending } from '~/components/forms'
import { ResetPasswordSchema } from '~/domain/accounts'
import { accountErrorMessage, isResetTokenValid, resetPassword } from '~/domain/accounts.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { pageMeta } from '~/utils/meta'
import { redirectWithToast } from '~/utils/toast.server'

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
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: ResetPasswordSchema })
	const hidden = { hideFields: ['password', 'confirmPassword'] }
	if (submission.status !== 'success') return data({ result: submission.reply(hidden) }, { status: 400 })
	const outcome = await resetPassword({ token: params.token ?? '', password: submission.value.password, ip: clientIp(context) })
	if (outcome === 'invalid') return data({ result: submission.reply({ ...hidden, formErrors: ['auth:reset.invalid'] }) }, { status: 400 })
	if (outcome !== 'ok') return data({ result: submission.reply({ ...hidden, formErrors: [accountErrorMessage(outcome)] }) }, { status: outcome.status })
	return redirectWithToast('/login', { type: 'success', key: 'auth:reset.success' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) => [
	...pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname),
	{ name: 'robots', content: 'noindex' },
]

export default function ResetPasswordPage() {
	const { t } = useTranslation('auth')
	const { valid } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: 'reset-password',
		lastResult: actionData?.result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
		// Errors clear while the user types, so nothing shifts under the pointer when they click submit.
		shouldRevalidate: 'onInput',
	})
	if (!valid) {
		return (
			<AuthPanel title={t('reset.invalid')} subtitle={t('reset.invalidText')}>
				<Link to="/forget-password" className="button button--primary">
					{t('reset.requestNew')}
				</Link>
			</AuthPanel>
		)
	}
	return (
		<AuthPanel title={t('reset.title')} subtitle={t('reset.subtitle')}>
			<Form method="post" className="form" {...getFormProps(form)}>
				<FormSecurity />
				<FormAlert id={form.errorId} errors={form.errors} />
				<Field
					label={t('reset.password')}
					required
					inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password', maxLength: 12 }}
					errors={fields.password.errors}
				/>
				<Field
					label={t('reset.confirmPassword')}
					required
					inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password', maxLength: 12 }}
					errors={fields.confirmPassword.errors}
				/>
				<div className="form-actions">
					<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className="button--primary button--large">
						{t('reset.submit')}
					</StatusButton>
				</div>
			</Form>
		</AuthPanel>
	)
}
