/** The way back from the account pages reached by e-mail links (reset, unlock) to the sign-in form. */
export function BackToLogin() {
  return (
    <p className="m-0 text-sm">
      <a href="/auth" className="font-semibold text-sea-dark">
        Back to Login
      </a>
    </p>
  );
}
