// Replaced by the back-office feature.
export default function AdminSectionPlaceholder() {
  return null;
}
