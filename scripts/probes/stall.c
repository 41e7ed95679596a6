// Does this kernel give software RX timestamps on TCP loopback reads? Compare them with a user-space stamp.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <netinet/tcp.h>
#include <linux/net_tstamp.h>
#include <linux/errqueue.h>
#include <pthread.h>
static int port;
static long long ns(clockid_t c){struct timespec t;clock_gettime(c,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
static void* server(void* a){
  int l=socket(AF_INET,SOCK_STREAM,0);int one=1;setsockopt(l,SOL_SOCKET,SO_REUSEADDR,&one,4);
  struct sockaddr_in s={0};s.sin_family=AF_INET;s.sin_addr.s_addr=htonl(INADDR_LOOPBACK);s.sin_port=0;
  bind(l,(void*)&s,sizeof s);socklen_t sl=sizeof s;getsockname(l,(void*)&s,&sl);port=ntohs(s.sin_port);listen(l,4);
  int c=accept(l,0,0);setsockopt(c,IPPROTO_TCP,TCP_NODELAY,&one,4);
  char msg[200];memset(msg,'x',sizeof msg);
  for(int i=0;i<2000;i++){ long long t=ns(CLOCK_REALTIME); memcpy(msg,&t,8); write(c,msg,sizeof msg); usleep(2000);} 
  close(c);return 0;}
int main(){
  pthread_t th;pthread_create(&th,0,server,0);while(!port)usleep(1000);usleep(10000);
  int fd=socket(AF_INET,SOCK_STREAM,0);struct sockaddr_in s={0};s.sin_family=AF_INET;s.sin_addr.s_addr=htonl(INADDR_LOOPBACK);s.sin_port=htons(port);
  int flags=SOF_TIMESTAMPING_RX_SOFTWARE|SOF_TIMESTAMPING_SOFTWARE;
  if(setsockopt(fd,SOL_SOCKET,SO_TIMESTAMPING,&flags,sizeof flags)){perror("SO_TIMESTAMPING");return 1;}
  connect(fd,(void*)&s,sizeof s);
  char buf[200],ctl[512];int n_ts=0,n=0,stalled=0; long long prevk=0; int same=0;long long dk[4000],du[4000];int k=0;
  for(;;){struct iovec io={buf,sizeof buf};struct msghdr m={0};m.msg_iov=&io;m.msg_iovlen=1;m.msg_control=ctl;m.msg_controllen=sizeof ctl;
    if(n>0 && n%100==0 && !stalled){usleep(50000);stalled=1;} else stalled=0; ssize_t r=recvmsg(fd,&m,0); long long user=ns(CLOCK_REALTIME); if(r<=0)break; n++;
    long long sent; memcpy(&sent,buf,8);
    for(struct cmsghdr*c=CMSG_FIRSTHDR(&m);c;c=CMSG_NXTHDR(&m,c)) if(c->cmsg_level==SOL_SOCKET&&c->cmsg_type==SO_TIMESTAMPING){
      struct timespec*ts=(struct timespec*)CMSG_DATA(c); long long kt=ts[0].tv_sec*1000000000LL+ts[0].tv_nsec; n_ts++; if(kt==prevk) same++; prevk=kt;
      if(k<4000 && r==200){dk[k]=kt-sent;du[k]=user-sent;k++;}}
  }
  int cmp(const void*a,const void*b){long long x=*(long long*)a,y=*(long long*)b;return x<y?-1:x>y;}
  qsort(dk,k,8,cmp);qsort(du,k,8,cmp);
  printf("reads %d, with kernel stamp %d, single-message reads %d, reads sharing the previous stamp %d\n",n,n_ts,k,same);
  printf("kernel stamp - send: p50 %lld p99 %lld max %lld ns\n",dk[k/2],dk[k*99/100],dk[k-1]);
  printf("user stamp   - send: p50 %lld p99 %lld max %lld ns\n",du[k/2],du[k*99/100],du[k-1]);
  return 0;}
