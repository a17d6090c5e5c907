import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { ChangePasswordCard } from "./_components/change-password-card";
import { ProfileCard } from "./_components/profile-card";

export const metadata: Metadata = { title: "Profile" };

export default function ProfilePage() {
  return (
    <>
      <PageHeader title="Profile" description="Your name and e-mail address as others see them, and your password." />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <ProfileCard />
        <ChangePasswordCard />
      </div>
    </>
  );
}
