import { type FormMetadata, getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { AskingWorkshopNote, AuthPanel } from '~/components/auth-panel'
import { CompanyFields } from '~/components/company-fields'
import { EidChoice, PendingEidNote, VerifiedNames } from '~/components/eid'
import { Field, FormActions, FormAlert, FormSection, FormSecurity, type ConformField } from '~/components/forms'
import { NewPasswordField } from '~/components/new-password-field'
import { RegisterSchema } from '~/domain/accounts/accounts'
import { accountErrorHeaders, accountErrorMessage, allowRegistration, openSession, register } from '~/domain/accounts/accounts.server'
import { EidRegisterSchema } from '~/domain/accounts/eid'
import { registerWithEid } from '~/domain/accounts/eid.server'
import { workshopOnTheWay } from '~/domain/service-flow/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { RichText, useTranslation } from '~/i18n/translation'
import { eidCookieHeader, pendingEid } from '~/identity/eid-cookie.server'
import { redirectSignedIn, redirectToOf, requireAnonymous, wayOn } from '~/utils/auth.server'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { getEnv } from '~/utils/env.server'
import { honeypotInputProps, isSpam } from '~/utils/honeypot.server'
import { routeMeta } from '~/utils/meta'
import { pageSeo } from '~/utils/seo.server'
import { readForm } from '~/uploads/multipart.server'
import { REDIRECT_TO, wayBack, withRedirectTo } from '~/utils/safe-redirect'
import { redirectWithToast } from '~/utils/toast.server'
import { type AdsHandle } from '~/utils/ad-places'

type Role = 'customer' | 'workshop'
/** The workshop's fields exist only in the workshop variant of either form's schema. */
type WorkshopFields = { workshopName: ConformField; companyName: ConformField; companyId: ConformField }
const roleFrom = (value: unknown): Role => (value === 'workshop' ? 'workshop' : 'customer')

export async function loader({ request }: LoaderFunctionArgs) {
	await requireAnonymous(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'auth')
	const redirectTo = redirectToOf(request)
	const pending = getEnv().eid ? await pendingEid(request) : null
	return {
		role: roleFrom(new URL(request.url).searchParams.get('role')),
		// eID (decision 0150): the button when a provider is configured; after an eID no account has, its verified names.
		eid: Boolean(getEnv().eid),
		pendingEid: pending ? { firstName: pending.firstName, lastName: pending.lastName } : null,
		redirectTo,
		// "Ask for an offer" on a workshop's page: the page says whom the request is for.
		askingWorkshop: (await workshopOnTheWay(redirectTo))?.name ?? null,
		// The bot trap, only on the two forms strangers send (not on every page: it costs a cipher).
		honeypot: honeypotInputProps(),
		meta: pageSeo(request, language, { title: t('register.metaTitle'), description: t('register.metaDescription') }),
	}
}

export async function action({ request, context }: ActionFunctionArgs) {
	await requireAnonymous(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const hidden = { hideFields: ['password', 'confirmPassword'] }
	// Registered, the person is logged in at once and goes on to the page they were on their way
	// to, when their role may open it (decision 0121).
	const onward = (role: Role) => wayOn(role, wayBack(formData.get(REDIRECT_TO)))
	// A bot gets the same redirect as a person, without a session, and nothing is stored.
	if (isSpam(formData)) return redirectWithToast(onward(roleFrom(formData.get('role'))), { type: 'success', key: 'auth:register.success' }, { request })
	if (formData.get('intent') === 'eid') return registerVerified(request, formData, clientIp(context), onward)
	const submission = parseWithZod(formData, { schema: RegisterSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(hidden) }, { status: 400 })

	const limited = await allowRegistration(clientIp(context))
	if (limited) {
		return data({ result: submission.reply({ ...hidden, formErrors: [accountErrorMessage(limited)] }) }, { status: 429, headers: accountErrorHeaders(limited) })
	}
	const result = await register(submission.value, await getLanguage(request))
	if (!result.ok) {
		return data({ result: submission.reply({ ...hidden, fieldErrors: { [result.field]: [result.key] } }) }, { status: 400 })
	}
	const token = await openSession({ userId: result.userId, kind: 'web', userAgent: request.headers.get('User-Agent'), method: 'password' })
	return redirectSignedIn(request, token, onward(submission.value.role), 'auth:register.success')
}

/** Registering with the eID verified a moment ago: its names, no password, the eID linked (decision 0150). */
async function registerVerified(request: Request, formData: FormData, ip: string, onward: (role: Role) => string) {
	const submission = parseWithZod(formData, { schema: EidRegisterSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const person = getEnv().eid ? await pendingEid(request) : null
	// Gone meanwhile (fifteen minutes, or forgotten): the eID must be verified again.
	if (!person) return data({ result: submission.reply({ formErrors: ['auth:eid.pendingExpired'] }) }, { status: 400 })
	const limited = await allowRegistration(ip)
	if (limited) return data({ result: submission.reply({ formErrors: [accountErrorMessage(limited)] }) }, { status: 429, headers: accountErrorHeaders(limited) })
	const result = await registerWithEid(submission.value, person, await getLanguage(request))
	if (!result.ok) {
		const errors = result.field ? { fieldErrors: { [result.field]: [result.key] } } : { formErrors: [result.key] }
		return data({ result: submission.reply(errors) }, { status: result.field ? 400 : 409 })
	}
	const token = await openSession({ userId: result.userId, kind: 'web', userAgent: request.headers.get('User-Agent'), method: 'eid' })
	return redirectSignedIn(request, token, onward(submission.value.role), 'auth:register.success', { 'Set-Cookie': await eidCookieHeader(null) })
}

export const meta = routeMeta<typeof loader>()

// Sign-in forms show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function RegisterPage() {
	const { t } = useTranslation('auth')
	const { role: initialRole, redirectTo, askingWorkshop, eid, pendingEid } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	// After a failed submission the form keeps the role that was submitted.
	const submittedRole = actionData?.result.initialValue?.role
	const role = submittedRole ? roleFrom(submittedRole) : initialRole

	return (
		<AuthPanel title={t('register.title')} subtitle={t('register.subtitle')} wide>
			{askingWorkshop && role === 'customer' ? (
				<AskingWorkshopNote title={t('askFor.title', { workshop: askingWorkshop })} text={t('askFor.register', { workshop: askingWorkshop })} />
			) : null}
			<nav className="role-switch" aria-label={t('register.roleLabel')}>
				{(['customer', 'workshop'] as const).map((option) => (
					<Link
						key={option}
						to={withRedirectTo(`/register?role=${option}`, redirectTo)}
						replace
						preventScrollReset
						className="role-switch__option"
						aria-current={option === role ? 'true' : undefined}
					>
						<strong>{t(option === 'customer' ? 'register.roleCustomer' : 'register.roleWorkshop')}</strong>
						<span>{t(option === 'customer' ? 'register.roleCustomerText' : 'register.roleWorkshopText')}</span>
					</Link>
				))}
			</nav>
			{pendingEid ? (
				<>
					<PendingEidNote
						title={t('eid.registerTitle')}
						text={t('eid.registerText')}
						other={{ to: withRedirectTo('/login', redirectTo), label: t('eid.loginInstead') }}
						back={withRedirectTo(`/register?role=${role}`, redirectTo)}
					/>
					<EidRegisterForm role={role} names={pendingEid} />
				</>
			) : (
				<>
					{eid ? <EidChoice href={withRedirectTo(`/eid/start?purpose=register&role=${role}`, redirectTo)} intro={t('eid.registerIntro')} /> : null}
					<PasswordRegisterForm role={role} />
				</>
			)}
			<p className="auth__switch">
				{t('register.haveAccount')} <Link to={withRedirectTo('/login', redirectTo)}>{t('register.loginLink')}</Link>
			</p>
		</AuthPanel>
	)
}

/** The workshop's fields, in both forms. */
function WorkshopSection({ fields }: { fields: WorkshopFields }) {
	const { t } = useTranslation('auth')
	return (
		<FormSection legend={t('register.workshopSection')}>
			<Field
				label={t('register.workshopName')}
				required
				inputProps={{ ...getInputProps(fields.workshopName, { type: 'text' }), autoComplete: 'organization' }}
				errors={fields.workshopName.errors}
			/>
			<CompanyFields companyName={fields.companyName} companyId={fields.companyId} companyIdHelp={t('register.companyIdHelp')} />
		</FormSection>
	)
}

function PasswordRegisterForm({ role }: { role: Role }) {
	const { t } = useTranslation('auth')
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: `register-${role}`,
		lastResult: actionData?.result,
		defaultValue: { role },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
		// Errors clear while the user types, so nothing shifts under the pointer when they click submit.
		shouldRevalidate: 'onInput',
	})
	const validate = (name: string) => form.validate({ name })
	const workshopFields = fields as typeof fields & WorkshopFields

	return (
		<RegisterFormFrame form={form} role={role} workshopFields={workshopFields}>
			<FormSection legend={t('register.personSection')}>
				<Field
					label={t('register.firstName')}
					required
					inputProps={{ ...getInputProps(fields.firstName, { type: 'text' }), autoComplete: 'given-name' }}
					errors={fields.firstName.errors}
				/>
				<Field
					label={t('register.lastName')}
					required
					inputProps={{ ...getInputProps(fields.lastName, { type: 'text' }), autoComplete: 'family-name' }}
					errors={fields.lastName.errors}
				/>
				<MobileField field={fields.mobile} />
			</FormSection>

			<FormSection legend={t('register.accountSection')}>
				<EmailField field={fields.email} />
				<NewPasswordField field={fields.password} validate={validate} label={t('register.password')} help={t('register.passwordHelp')} />
				<NewPasswordField field={fields.confirmPassword} validate={validate} label={t('register.confirmPassword')} />
			</FormSection>
		</RegisterFormFrame>
	)
}

/** Registering with a verified eID: its names shown, not asked; no password (decision 0150). */
function EidRegisterForm({ role, names }: { role: Role; names: { firstName: string; lastName: string } }) {
	const { t } = useTranslation('auth')
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: `register-eid-${role}`,
		lastResult: actionData?.result,
		defaultValue: { role },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: EidRegisterSchema }),
		// Errors clear while the user types, so nothing shifts under the pointer when they click submit.
		shouldRevalidate: 'onInput',
	})
	const workshopFields = fields as typeof fields & WorkshopFields

	return (
		<RegisterFormFrame form={form} role={role} intent="eid" workshopFields={workshopFields}>
			<FormSection legend={t('register.personSection')}>
				<VerifiedNames firstName={names.firstName} lastName={names.lastName} note={t('eid.namesNote')} />
				<MobileField field={fields.mobile} />
			</FormSection>

			<FormSection legend={t('register.accountSection')}>
				<EmailField field={fields.email} help={t('eid.emailHelp')} />
			</FormSection>
		</RegisterFormFrame>
	)
}

/** What both forms share around their own fields: the hidden ones, the form's alert, the workshop's section, the terms and the button. */
function RegisterFormFrame<Fields extends Record<string, unknown>>({
	form,
	role,
	intent,
	workshopFields,
	children,
}: {
	form: FormMetadata<Fields, string[]>
	role: Role
	intent?: string
	workshopFields: WorkshopFields
	children: React.ReactNode
}) {
	const { t } = useTranslation('auth')
	const { redirectTo, honeypot } = useLoaderData<typeof loader>()
	return (
		<Form method="post" className="form" {...getFormProps(form)}>
			<FormSecurity honeypot={honeypot} intent={intent} />
			{redirectTo ? <input type="hidden" name={REDIRECT_TO} value={redirectTo} /> : null}
			<input type="hidden" name="role" value={role} />
			<FormAlert id={form.errorId} errors={form.errors} />

			{role === 'workshop' ? <WorkshopSection fields={workshopFields} /> : null}
			{children}

			<Terms />
			<FormActions submit={t(role === 'workshop' ? 'register.submitWorkshop' : 'register.submitCustomer')} large />
		</Form>
	)
}

function MobileField({ field }: { field: ConformField }) {
	const { t } = useTranslation('auth')
	return (
		<Field
			label={t('register.mobile')}
			required
			help={t('register.mobileHelp')}
			inputProps={{ ...getInputProps(field, { type: 'tel' }), autoComplete: 'tel' }}
			errors={field.errors}
		/>
	)
}

function EmailField({ field, help }: { field: ConformField; help?: string }) {
	const { t } = useTranslation('auth')
	return (
		<Field
			className="field--wide"
			label={t('register.email')}
			required
			help={help}
			inputProps={{ ...getInputProps(field, { type: 'email' }), autoComplete: 'email' }}
			errors={field.errors}
		/>
	)
}

function Terms() {
	const { t } = useTranslation('auth')
	return (
		<p className="form-note">
			<RichText text={t('register.terms')} elements={{ terms: <Link to="/terms-conditions" />, privacy: <Link to="/privacy-poicy" /> }} />
		</p>
	)
}
