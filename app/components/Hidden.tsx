/**
 * A hidden field posted as is (intent, login_type ...). In its own module so that a page without a
 * validated form (the policy notice on every page) does not load the form library with it.
 */
export function Hidden({ name, value }: { name: string; value: string | number }) {
  return <input type="hidden" name={name} value={value} />;
}
