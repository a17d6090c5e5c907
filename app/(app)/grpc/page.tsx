import type { Metadata } from "next";
import { GrpcProtosPage } from "./_components/grpc-protos-page";

export const metadata: Metadata = { title: "gRPC protos" };

export default function Page() {
  return <GrpcProtosPage />;
}
