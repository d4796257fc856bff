import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Field, FormAlert, FormSecurity, StatusButton, useIsPending } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { ChangeEmailSchema, CompanyFieldsSchema } from '~/domain/admin'
import { changeEmail, getUserForAdmin, setBlocked, updateCompanyFields } from '~/domain/admin-users.server'
import { DomainError } from '~/domain/errors'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatDateTime } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const userId = idParam(params.id)
	const user = await getUserForAdmin(userId)
	if (!user) throw new Response('Not found', { status: 404 })
	const t = getFixedT(await getLanguage(request), 'admin')
	return { meta: { title: t('user.title', { name: user.name }) }, user }
}

export async function action({ request, params }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const userId = idParam(params.id)
	const here = new URL(request.url).pathname
	const intent = formData.get('intent')

	if (intent === 'block' || intent === 'unblock') {
		try {
			await or404(setBlocked(admin.id, userId, intent === 'block'))
		} catch (error) {
			if (error instanceof DomainError) return data({ intent, result: null, error: error.key }, { status: error.status })
			throw error
		}
		return redirectWithToast(here, { type: 'success', key: intent === 'block' ? 'admin:user.blockedToast' : 'admin:user.unblockedToast' }, { request })
	}

	if (intent === 'email') {
		const submission = parseWithZod(formData, { schema: ChangeEmailSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply(), error: null }, { status: 400 })
		try {
			await or404(changeEmail(admin.id, userId, submission.value.email))
		} catch (error) {
			if (error instanceof DomainError) {
				return data({ intent, result: submission.reply({ fieldErrors: { email: [error.key] } }), error: null }, { status: error.status })
			}
			throw error
		}
		return redirectWithToast(here, { type: 'success', key: 'admin:user.emailSaved' }, { request })
	}

	if (intent === 'company') {
		const submission = parseWithZod(formData, { schema: CompanyFieldsSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply(), error: null }, { status: 400 })
		await or404(updateCompanyFields(admin.id, userId, submission.value))
		return redirectWithToast(here, { type: 'success', key: 'admin:user.companySaved' }, { request })
	}

	throw new Response('Bad request', { status: 400 })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function AdminUserPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { user } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const isPending = useIsPending()
	const [emailForm, emailFields] = useForm({
		id: 'admin-email',
		lastResult: actionData?.intent === 'email' ? actionData.result : undefined,
		defaultValue: { email: user.email },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeEmailSchema }),
		shouldRevalidate: 'onInput',
	})
	const [companyForm, companyFields] = useForm({
		id: 'admin-company',
		lastResult: actionData?.intent === 'company' ? actionData.result : undefined,
		defaultValue: { companyName: user.workshop?.companyName ?? '', companyId: user.workshop?.companyId ?? '' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CompanyFieldsSchema }),
		shouldRevalidate: 'onInput',
	})
	const blockError = actionData && 'error' in actionData && actionData.error ? [actionData.error] : undefined
	return (
		<>
			<PageHeader
				title={user.workshopName ?? user.name}
				subtitle={t('user.subtitle', { role: t(`auth:roles.${user.role}`), date: formatDate(user.createdAt, language) })}
				actions={
					<Link to="/admin/users" className="button button--ghost button--small">
						{t('user.back')}
					</Link>
				}
			/>
			<div className="admin-grid">
				<section className="card" aria-labelledby="account-title">
					<h2 id="account-title">{t('user.account')}</h2>
					<dl className="admin-facts">
						<dt>{t('users.name')}</dt>
						<dd>{user.name}</dd>
						<dt>{t('users.email')}</dt>
						<dd>{user.email}</dd>
						<dt>{t('user.mobile')}</dt>
						<dd>{user.mobile || '–'}</dd>
						<dt>{t('users.state')}</dt>
						<dd>
							{user.blocked ? (
								<span className="badge admin-badge--blocked">
									{user.blockedAt ? t('user.blockedSince', { date: formatDateTime(user.blockedAt, language) }) : t('users.blocked')}
								</span>
							) : (
								t('users.active')
							)}
						</dd>
					</dl>
					<FormAlert errors={blockError} />
					<Form method="post" className="form">
						<FormSecurity />
						{user.blocked ? (
							<>
								<input type="hidden" name="intent" value="unblock" />
								<p>{t('user.unblockText')}</p>
								<button type="submit" className="button button--primary">
									{t('user.unblock')}
								</button>
							</>
						) : (
							<>
								<input type="hidden" name="intent" value="block" />
								<p>{t('user.blockText')}</p>
								<button type="submit" className="button button--danger">
									{t('user.block')}
								</button>
							</>
						)}
					</Form>
				</section>
				<section className="card" aria-labelledby="email-title">
					<h2 id="email-title">{t('user.emailTitle')}</h2>
					<p>{t('user.emailText')}</p>
					<Form method="post" className="form" {...getFormProps(emailForm)}>
						<FormSecurity />
						<input type="hidden" name="intent" value="email" />
						<Field
							label={t('user.newEmail')}
							required
							inputProps={{ ...getInputProps(emailFields.email, { type: 'email' }), autoComplete: 'off' }}
							errors={emailFields.email.errors}
						/>
						<div className="form-actions">
							<StatusButton type="submit" status={isPending ? 'pending' : 'idle'}>
								{t('user.emailSubmit')}
							</StatusButton>
						</div>
					</Form>
				</section>
				{user.workshop ? (
					<section className="card" aria-labelledby="company-title">
						<h2 id="company-title">{t('user.companyTitle')}</h2>
						<p>{t('user.companyText')}</p>
						<Form method="post" className="form" {...getFormProps(companyForm)}>
							<FormSecurity />
							<input type="hidden" name="intent" value="company" />
							<Field
								label={t('user.companyName')}
								required
								inputProps={getInputProps(companyFields.companyName, { type: 'text' })}
								errors={companyFields.companyName.errors}
							/>
							<Field
								label={t('user.companyId')}
								required
								help={t('user.companyIdHelp')}
								inputProps={{ ...getInputProps(companyFields.companyId, { type: 'text' }), inputMode: 'numeric', maxLength: 10 }}
								errors={companyFields.companyId.errors}
							/>
							<div className="form-actions">
								<StatusButton type="submit" status={isPending ? 'pending' : 'idle'}>
									{t('user.companySubmit')}
								</StatusButton>
							</div>
						</Form>
					</section>
				) : null}
			</div>
		</>
	)
}
